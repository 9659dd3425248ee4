// The live charts of one run. The page's component imports this module, calls start() with the seconds it has, then
// add() with each second its live feed brings (the component renders the tiles, keeps the seconds whole and fills any
// gap): the module only draws the points it is handed. Chart.js is served by the app (wwwroot/lib, from npm), so this
// works offline.

const SHORTEST_RATE_SECOND = 0.5;

import { colour, latencyAxis, legend, logValue, title as titleStyle } from '../../../js/palette.js';

// Series colours: the first series of a chart is colour(0), the second colour(1), and so on (palette.js); guides
// (average, provisioned, a bound) are dashed in a colour no other series of their chart has.
const palette = {
    window: '#009E73', windowFill: 'rgba(0, 158, 115, 0.10)',
    stageFills: ['rgba(110, 119, 129, 0.07)', 'rgba(110, 119, 129, 0.15)'], stageText: '#57606a',
    limit: '#D55E00', limitedFill: 'rgba(213, 94, 0, 0.12)',
};

// Each dataset draws from its own `source` array: once a series is long, Chart.js's decimation plugin replaces
// `data` with a thinned copy (min-max per pixel, so peaks stay visible), and the source is handed back to it
// before each redraw.
function line(label, color, extra = {}) {
    const source = [];
    return { label, data: source, source, borderColor: color, backgroundColor: color, borderWidth: 1.5, pointRadius: 0, tension: 0, ...extra };
}

function guide(label, color) {
    return line(label, color, { borderDash: [6, 4], borderWidth: 1.2 });
}

// The steady-state window as a shaded band with edge lines, drawn under the data. Second i spans the time
// from i to i + 1 (its point sits at its end), so the band of seconds first..last runs from first to last + 1.
const windowBand = {
    id: 'benchWebWindow',
    beforeDatasetsDraw(c) {
        const w = c.$benchWebWindow;
        if (!w) return;
        const { ctx, chartArea: area, scales: { x } } = c;
        const left = Math.max(x.getPixelForValue(w.first), area.left);
        const right = Math.min(x.getPixelForValue(w.last + 1), area.right);
        if (right <= left) return;
        ctx.save();
        ctx.fillStyle = palette.windowFill;
        ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
        ctx.strokeStyle = palette.window;
        ctx.lineWidth = 1;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        for (const edge of [left, right]) {
            ctx.moveTo(edge, area.top);
            ctx.lineTo(edge, area.bottom);
        }
        ctx.stroke();
        ctx.restore();
    },
};

// Runs of seconds as bands drawn under the data, each labelled: a staged run's stages (alternating light shades, on every
// chart, labelled at the top) and the client-limited seconds (on the client health chart, labelled at the bottom so that
// the two labels never overlap). A band covers its seconds first..last, so, as for the window, from first to last + 1.
function bands(id, key, fills, textColor, labelAtBottom = false) {
    return {
        id,
        beforeDatasetsDraw(c) {
            const runs = c[key];
            if (!runs || runs.length === 0) return;
            const { ctx, chartArea: area, scales: { x } } = c;
            ctx.save();
            ctx.font = '11px sans-serif';
            ctx.textBaseline = 'top';
            runs.forEach((band, k) => {
                const left = Math.max(x.getPixelForValue(band.first), area.left);
                const right = Math.min(x.getPixelForValue(band.last + 1), area.right);
                if (right <= left) return;
                ctx.fillStyle = fills[k % fills.length];
                ctx.fillRect(left, area.top, right - left, area.bottom - area.top);
                // A label wider than its band would show as a stub ("clie"): the shading alone marks it; the page lists the seconds.
                if (ctx.measureText(band.label).width + 6 > right - left) return;
                ctx.fillStyle = textColor;
                ctx.save();
                ctx.beginPath();
                const top = labelAtBottom ? area.bottom - 14 : area.top;
                ctx.rect(left, top, right - left, 14);
                ctx.clip();
                ctx.fillText(band.label, left + 3, top + 2);
                ctx.restore();
            });
            ctx.restore();
        },
    };
}

const stageBands = bands('benchWebStages', '$benchWebStages', palette.stageFills, palette.stageText);
const limitedBands = bands('benchWebClientLimited', '$benchWebLimited', [palette.limitedFill], palette.limit, true);

// A second's client health arrives with it: clientLimits is null for a second measured without it (an older run), 0 for a
// healthy one, and the bounds it crossed otherwise (the summary's one client-limited verdict).
const hasHealth = s => s.clientLimits != null;
const isClientLimited = s => hasHealth(s) && s.clientLimits !== 0;

// Consecutive client-limited seconds as bands (by index, as the stages are).
function limitedRuns(seconds) {
    const runs = [];
    for (const s of seconds) {
        if (!isClientLimited(s)) continue;
        const last = runs[runs.length - 1];
        if (last && last.last === s.index - 1) last.last = s.index;
        else runs.push({ first: s.index, last: s.index, label: 'client-limited' });
    }
    return runs;
}

function chart(canvas, title, unit, datasets, plugins = [], scales = {}) {
    return new window.Chart(canvas, {
        type: 'line',
        plugins: [stageBands, ...plugins],
        data: { datasets },
        options: {
            animation: false,
            parsing: false,
            normalized: true,
            responsive: true,
            maintainAspectRatio: false,
            interaction: { mode: 'nearest', axis: 'x', intersect: false },
            plugins: {
                decimation: { enabled: true, algorithm: 'min-max' },
                title: { ...titleStyle, text: title },
                legend,
            },
            scales: {
                x: { type: 'linear', min: 0, title: { display: true, text: 'seconds' }, ticks: { precision: 0 } },
                y: { beginAtZero: true, title: { display: true, text: unit } },
                ...scales,
            },
        },
    });
}

class LiveView {
    constructor(root, options) {
        this.root = root;
        this.options = options;
        this.seconds = new Map();
        this.lastIndex = -1;
        this.pending = false;
        this.totalOk = 0;
        this.stopped = false;
        this.drawnLive = [];
        this.healthSeconds = 0;
        this.healthPoints = 0;
        const canvas = name => root.querySelector(`canvas[data-chart="${name}"]`);
        this.charts = {
            inserts: chart(canvas('inserts'), 'Inserts per second', 'inserts/s', [line('inserts/s', colour(0)), guide('average', colour(6))], [windowBand]),
            throttled: chart(canvas('throttled'), 'Throttled per second (429 / 503)', 'responses/s', [line('throttled/s', colour(1))]),
            ru: chart(canvas('ru'), options.requestUnitsReported === false ? 'Request units per second: n/a (the target has no request units)' : 'Request units per second', 'RU/s', [line('RU/s', colour(0)), guide('provisioned', colour(6))]),
            // On a log axis, so that a p50 of a few milliseconds is not flattened onto zero by a p99 of hundreds.
            latency: chart(canvas('latency'), 'Latency (click: that second\'s slowest requests)', 'ms', [
                line('p50', colour(0)), line('p99', colour(1)),
                line('slow request kept', colour(2), { showLine: false, pointRadius: 3, pointHoverRadius: 5, pointStyle: 'crossRot' }),
            ], [], { y: latencyAxis() }),
            cpu: chart(canvas('cpu'), 'Client CPU', '%', [line('CPU %', colour(0)), guide(options.processCpuBound == null ? 'no CPU bound' : `client-limited from ${options.processCpuBound} %`, colour(1))]),
            health: chart(canvas('health'), 'Client health', 'CPU %', [
                line('host CPU %', colour(0)),
                line('this process CPU %', colour(1)),
                line('scheduling lag p99 (ms)', colour(2), { yAxisID: 'ms' }),
                line('GC pause (ms)', colour(3), { yAxisID: 'ms' }),
            ], [limitedBands], {
                y: { min: 0, max: 100, title: { display: true, text: 'CPU %' } },
                ms: { type: 'linear', axis: 'y', position: 'right', beginAtZero: true, title: { display: true, text: 'ms' }, grid: { drawOnChartArea: false } },
            }),
        };
        this.charts.cpu.options.scales.y.suggestedMax = 100;
        // A click on the latency chart goes to the slowest requests of the second under it (a kept request's point: its own).
        this.slowPoints = [];
        this.charts.latency.options.onClick = (event, elements, c) => {
            const kept = elements.find(e => e.datasetIndex === 2);
            const point = kept ? c.data.datasets[2].data[kept.index] : null;
            this.pickSecond(point?.second ?? Math.max(0, Math.ceil(c.scales.x.getValueForPixel(event.x)) - 1));
        };
        this.healthBox = root.querySelector('#client-health');
        // A chart scrolled out of view is not redrawn each second: its data stays current, and it is drawn as it comes into
        // view (a run page holds six charts, a screen shows two or three). Every chart counts as in view until the browser says.
        this.inView = new Set(Object.values(this.charts));
        this.stale = new Set();
        if ('IntersectionObserver' in window) {
            const byCanvas = new Map(Object.values(this.charts).map(c => [c.canvas, c]));
            this.observer = new IntersectionObserver(entries => {
                for (const entry of entries) {
                    const c = byCanvas.get(entry.target);
                    if (!c || !this.inView) continue;
                    if (!entry.isIntersecting) { this.inView.delete(c); continue; }
                    this.inView.add(c);
                    if (this.stale.delete(c) && !this.stopped) c.update('none');
                }
            });
            for (const c of byCanvas.keys()) this.observer.observe(c);
        }
        for (const c of Object.values(this.charts)) c.$benchWebStages = options.stages ?? [];
        // Seconds drawn after arriving live: how long from the engine closing a second to its point.
        window.benchWeb ??= {};
        window.benchWeb.pushLatencies ??= [];
        // Each second that arrived live: its index, the time from the engine closing it to its arrival in the page (before
        // its frame is drawn: what the server and the connection take), and the server's share of that (to the server
        // handing it to this page's circuit; null when not told).
        window.benchWeb.liveSeconds ??= [];
        // How long each redraw of all charts takes: what keeps an hour-long run (3,600 points a series) smooth.
        window.benchWeb.drawMs ??= [];
    }

    // Seconds to draw, in any order (one already drawn is skipped); liveIndex names the one that arrived live, whose
    // push latency is measured, and sentAt (Unix ms) when the server handed it to the page.
    add(seconds, liveIndex, sentAt) {
        if (this.stopped) return;
        let outOfOrder = false;
        const fresh = [];
        for (const s of seconds) {
            if (this.seconds.has(s.index)) continue;
            this.seconds.set(s.index, s);
            this.totalOk += s.ok;
            if (hasHealth(s)) this.healthSeconds++;
            if (s.index < this.lastIndex) outOfOrder = true;
            this.lastIndex = Math.max(this.lastIndex, s.index);
            fresh.push(s);
            if (s.index === liveIndex) {
                this.drawnLive.push(Date.parse(s.closedAt));
                const closedAt = Date.parse(s.closedAt);
                window.benchWeb.liveSeconds.push({ index: s.index, received: Date.now() - closedAt, server: sentAt == null ? null : sentAt - closedAt });
            }
        }
        if (fresh.length === 0) return;
        if (outOfOrder) {
            this.rebuild();
        } else {
            for (const s of fresh) this.append(s);
        }
        if (fresh.some(isClientLimited)) this.charts.health.$benchWebLimited = limitedRuns(this.ordered());
        this.showHealth();
        this.updateGuides();
        this.scheduleDraw();
    }

    append(s) {
        // A last, partial second of a few milliseconds is no rate (13 documents in 7 ms are not 1,857/s), and its
        // handful of latencies is no percentile: its counts are in the totals, not on the charts.
        const duration = s.durationSeconds;
        if (duration < SHORTEST_RATE_SECOND) return;
        const x = s.elapsedSeconds;
        this.charts.inserts.data.datasets[0].source.push({ x, y: s.ok / duration });
        this.charts.throttled.data.datasets[0].source.push({ x, y: s.throttled / duration });
        // No request units (Table Storage) is no point, not 0; a second in which nothing succeeded has no latency: a gap
        // in the line (null), never a dive to 0 ms.
        this.charts.ru.data.datasets[0].source.push({ x, y: this.options.requestUnitsReported === false ? null : s.requestUnits / duration });
        this.charts.latency.data.datasets[0].source.push({ x, y: logValue(s.latencyP50Ms) });
        this.charts.latency.data.datasets[1].source.push({ x, y: logValue(s.latencyP99Ms) });
        this.charts.cpu.data.datasets[0].source.push({ x, y: s.clientCpuPercent });
        // A second without client health is no point on the health chart (a gap), never 0 %.
        const health = this.charts.health.data.datasets;
        const measured = hasHealth(s);
        health[0].source.push({ x, y: measured ? s.hostCpuPercent ?? null : null });
        health[1].source.push({ x, y: measured ? s.clientCpuPercent : null });
        health[2].source.push({ x, y: measured ? s.schedulingLagP99Ms ?? null : null });
        health[3].source.push({ x, y: measured ? s.gcPauseMs ?? null : null });
        if (measured) this.healthPoints++;
    }

    ordered() {
        return [...this.seconds.values()].sort((a, b) => a.index - b.index);
    }

    rebuild() {
        for (const c of Object.values(this.charts)) {
            for (const d of c.data.datasets) d.source = [];
        }
        this.healthPoints = 0;
        this.ordered().forEach(s => this.append(s));
        this.charts.latency.data.datasets[2].source = this.slowPoints;
    }

    // The kept slow requests ({second, latencyMs}) as points on the latency chart, each at its second's end.
    setSlowRequests(requests) {
        this.slowPoints = (requests ?? []).map(r => ({ x: r.second + 1, y: logValue(r.latencyMs), second: r.second }));
        this.placeSlowPoints();
        this.charts.latency.data.datasets[2].source = this.slowPoints;
        this.scheduleDraw();
    }

    // A slow request's point at its second's end as measured (a last, partial second ends before its whole second would),
    // never past the axis's end (which a last second of a few milliseconds may be).
    placeSlowPoints() {
        const max = this.charts.latency.options.scales.x.max ?? Infinity;
        for (const p of this.slowPoints) p.x = Math.min(this.seconds.get(p.second)?.elapsedSeconds ?? p.second + 1, max);
    }

    // Marks the slowest requests of second `index` in the page's panel and scrolls to the first (or says there are none).
    pickSecond(index) {
        const panel = document.getElementById('slow-requests');
        if (!panel) return;
        let first = null;
        for (const entry of panel.querySelectorAll('.slow-request')) {
            const match = Number(entry.dataset.second) === index;
            entry.toggleAttribute('data-picked', match);
            if (match && !first) first = entry;
        }
        panel.dataset.picked = String(index);
        const note = panel.querySelector('#slow-requests-picked');
        if (note) {
            note.hidden = first !== null;
            note.textContent = `Second ${index}: none of its requests was kept.`;
        }
        (first ?? panel).scrollIntoView({ block: 'start' });
    }

    // The health chart is drawn once a second has client health; a run whose seconds have none says it was not measured.
    showHealth() {
        if (!this.healthBox) return;
        const state = this.healthSeconds > 0 ? 'measured' : this.seconds.size > 0 ? 'unmeasured' : 'waiting';
        this.healthBox.dataset.health = state;
        this.root.dataset.healthPoints = String(this.healthPoints);
    }

    updateGuides() {
        const last = this.seconds.get(this.lastIndex);
        const end = last ? last.elapsedSeconds : 0;
        const average = end > 0 ? this.totalOk / end : 0;
        this.charts.inserts.data.datasets[1].source = [{ x: 0, y: average }, { x: end, y: average }];
        const provisioned = this.options.provisionedRequestUnits;
        this.charts.ru.data.datasets[1].source = provisioned ? [{ x: 0, y: provisioned }, { x: end, y: provisioned }] : [];
        const bound = this.options.processCpuBound;
        this.charts.cpu.data.datasets[1].source = bound == null ? [] : [{ x: 0, y: bound }, { x: end, y: bound }];
        // Every chart spans the same seconds, to the run's end, whichever of its series stops short of it; a whole second, so
        // that the axis does not end on a label like 60.01.
        const max = end > 0 ? Math.max(1, Math.ceil(end - 0.05)) : undefined;
        for (const c of Object.values(this.charts)) c.options.scales.x.max = max;
        this.placeSlowPoints();
    }

    // At most one redraw per frame, however many seconds arrive.
    scheduleDraw() {
        if (this.pending || this.stopped) return;
        this.pending = true;
        requestAnimationFrame(() => {
            this.pending = false;
            if (this.stopped) return;
            const started = performance.now();
            for (const c of Object.values(this.charts)) {
                for (const d of c.data.datasets) d.data = d.source;
                if (!this.inView || this.inView.has(c)) c.update('none');
                else this.stale.add(c);
            }
            window.benchWeb.drawMs.push(performance.now() - started);
            // Push latency as the user sees it: from the engine closing a second to its point being drawn.
            const drawnAt = Date.now();
            for (const closedAt of this.drawnLive) window.benchWeb.pushLatencies.push(drawnAt - closedAt);
            this.drawnLive = [];
            this.root.dataset.points = String(this.seconds.size);
        });
    }

    setProvisioned(requestUnits) {
        this.options.provisionedRequestUnits = requestUnits;
        this.updateGuides();
        this.scheduleDraw();
    }

    // Shades the steady-state window (0-based seconds, inclusive) on the inserts/s chart; null clears it.
    setWindow(first, last) {
        const shown = first != null && last != null && last >= first;
        this.charts.inserts.$benchWebWindow = shown ? { first, last } : null;
        this.root.dataset.window = shown ? `${first}-${last}` : '';
        this.scheduleDraw();
    }

    // From now on every chart is drawn, in view or not: the run has ended, and its page may be printed or captured whole.
    drawAll() {
        this.inView = null;
        this.observer?.disconnect();
        for (const c of this.stale) c.update('none');
        this.stale.clear();
    }

    stop() {
        this.stopped = true;
        this.observer?.disconnect();
        for (const c of Object.values(this.charts)) c.destroy();
    }
}

export function start(root, options, seconds) {
    const view = new LiveView(root, options);
    window.benchWeb.view = view; // for diagnostics from the browser's console and the browser tests
    view.add(seconds ?? [], null);
    return view;
}
