// Starts @vercel/cosmosdb-server over plain HTTP with keep-alive on 127.0.0.1.
// Its own CLI serves HTTPS with an expired bundled certificate and closes every connection,
// which would measure TLS handshakes instead of inserts.
// Usage: node cosmos-server.js <port>
"use strict";
const { createHttpServer } = require("@vercel/cosmosdb-server");

const port = Number.parseInt(process.argv[2] ?? "0", 10);
const server = createHttpServer({ keepAlive: true });
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;
server.listen(port, "127.0.0.1", () => {
  console.log(`cosmosdb-server listening on http://127.0.0.1:${server.address().port}/`);
});
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
