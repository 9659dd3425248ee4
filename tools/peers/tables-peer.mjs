// The engine's peer for Table Storage transactions: a bare loop of Microsoft's Node SDK (@azure/data-tables) that sends
// entity-group transactions of BATCH entities, CONCURRENCY at a time, each sender sending its next as soon as its last
// returned (a sliding window), until TOTAL entities have landed. The entities are the engine's own flight documents
// (a JSON file of their properties), each transaction under one partition key, as the engine sends them.
//
// Usage: node tables-peer.mjs ENTITIES.json CONCURRENCY TOTAL BATCH TABLE
// Reads the connection string from BENCH_TABLES_CONNECTION_STRING (http is allowed: the local emulator).
// Prints one JSON line: {"entities":N,"seconds":S,"cpuMs":C}, C being this process's user + system CPU over the sends.
// The table is left for the caller to delete, once it has read the server's CPU time.
import { readFileSync } from 'node:fs';
import { TableClient } from '@azure/data-tables';

const [file, concurrencyText, totalText, batchText, tableName] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const total = Number(totalText);
const batch = Number(batchText);
const connection = process.env.BENCH_TABLES_CONNECTION_STRING;
if (!file || !(concurrency > 0) || !(total > 0) || !(batch > 0 && batch <= 100) || !tableName || !connection) {
    console.error('usage: BENCH_TABLES_CONNECTION_STRING=... node tables-peer.mjs ENTITIES.json CONCURRENCY TOTAL BATCH(1-100) TABLE');
    process.exit(2);
}

const templates = JSON.parse(readFileSync(file, 'utf8'));
const client = TableClient.fromConnectionString(connection, tableName, { allowInsecureConnection: true });
await client.createTable();

const batches = Math.ceil(total / batch);
let next = 0;
let landed = 0;
const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();

async function sender() {
    for (let b = next++; b < batches; b = next++) {
        const partitionKey = `p${b}`;
        const size = Math.min(batch, total - (b * batch));
        const actions = new Array(size);
        for (let i = 0; i < size; i++) {
            const n = (b * batch) + i;
            actions[i] = ['create', { ...templates[n % templates.length], partitionKey, rowKey: `r${n}` }];
        }
        const response = await client.submitTransaction(actions);
        if (response.status !== 202) throw new Error(`transaction ${b}: status ${response.status}`);
        landed += size;
    }
}

await Promise.all(Array.from({ length: concurrency }, sender));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const cpu = process.cpuUsage(cpuBefore);
console.log(JSON.stringify({ entities: landed, seconds, cpuMs: (cpu.user + cpu.system) / 1000 }));
