// Overlaid per-second charts of 2–5 runs, and copying to the clipboard. The comparison page imports this module
// and calls draw() with one series per run; each series' time is seconds since that run's own start, so all
// runs begin at t = 0. Chart.js is loaded by the app's page (window.Chart, served from wwwroot/lib).

import { colour, latencyAxis, legend, legendLabel, logValue, title } from '../../../js/palette.js';

// One colour per run, in the comparison's order (the first is the baseline): colour(i) for the i-th run.

const figures = [
    { chart: 'inserts', title: 'Inserts per second', unit: 'inserts/s', values: s => s.inserts },
    { chart: 'throttled', title: 'Throttled per second (429 / 503)', unit: 'responses/s', values: s => s.throttled },
    { chart: 'ru', title: 'Request units per second', unit: 'RU/s', values: s => s.requestUnits },
    { chart: 'latency-p50', title: 'Latency p50', unit: 'ms', values: s => s.latencyP50, latency: true },
    { chart: 'latency', title: 'Latency p99', unit: 'ms', values: s => s.latencyP99, latency: true },
];

// The charts drawn into each container, so a redraw (another comparison on the same page) replaces them.
const drawn = new WeakMap();

function config(figure, series) {
    return {
        type: 'line',
        data: {
            datasets: series.map((s, i) => {
                const values = figure.values(s);
                const color = colour(i);
                return {
                    label: legendLabel(s.label),
                    data: s.time.map((x, j) => ({ x, y: figure.latency ? logValue(values[j]) : values[j] })),
                    borderColor: color,
                    backgroundColor: color,
                    borderWidth: 1.5,
                    pointRadius: 0,
                    tension: 0,
                };
            }),
        },
        options: {
            animation: false,
            parsing: false,
            normalized: true,
            responsive: true,
            maintainAspectRatio: false,
            interaction: { mode: 'nearest', axis: 'x', intersect: false },
            plugins: {
                // Hour-long runs: min-max per pixel keeps peaks visible without drawing every point.
                decimation: { enabled: true, algorithm: 'min-max' },
                title: { ...title, text: figure.title },
                legend,
            },
            scales: {
                x: { type: 'linear', min: 0, title: { display: true, text: 'seconds since the run started' }, ticks: { precision: 0 } },
                y: figure.latency ? latencyAxis(figure.unit) : { beginAtZero: true, title: { display: true, text: figure.unit } },
            },
        },
    };
}

export function draw(root, series) {
    release(root);
    const charts = figures.map(figure => new window.Chart(root.querySelector(`canvas[data-chart="${figure.chart}"]`), config(figure, series)));
    drawn.set(root, charts);
    // For the browser tests and anyone scripting the page: how many runs are drawn, with how many seconds.
    root.dataset.series = String(series.length);
    root.dataset.points = String(series.reduce((total, s) => total + s.time.length, 0));
}

export function release(root) {
    for (const chart of drawn.get(root) ?? []) chart.destroy();
    drawn.delete(root);
}

// The clipboard API needs a secure context (https or localhost); elsewhere the text is selected in its box and
// copied the old way, and when even that is refused the user finds it selected, ready for Ctrl+C.
export async function copyText(text, box) {
    if (navigator.clipboard && window.isSecureContext) {
        try {
            await navigator.clipboard.writeText(text);
            return true;
        } catch {
            // Denied (no permission, page not focused): fall back below.
        }
    }
    if (!box) return false;
    box.focus();
    box.select();
    try {
        return document.execCommand('copy');
    } catch {
        return false;
    }
}
