// The charts of a sweep: throughput against the swept value, latency against throughput (the "hockey stick": flat
// while the service keeps up, steep past the knee), and the throttled share and client CPU against the value. The
// sweep page imports this module and calls draw() with one series per series of the sweep (one when there is none);
// the recommended step of each is drawn larger. Chart.js is loaded by the app's page (window.Chart, from wwwroot/lib).

import { colour, latencyAxis, legend, title as titleStyle } from '../../../js/palette.js';

// Every line of a chart its own colour (palette.js): series × figure, in order; dashes add to the colour.

const drawn = new WeakMap();

// A category axis keeps the values in the sweep's order and spacing whatever they are (numbers, Gateway/Direct, true/false).
function byValue(title, unit, pick, series, labels) {
    return {
        type: 'line',
        data: {
            labels,
            datasets: series.flatMap((s, i) => pick(s).map((line, j) => ({
                label: (s.name ? `${s.name} · ` : '') + line.label,
                data: labels.map(value => {
                    const step = s.steps.find(x => x.value === value);
                    return step ? line.value(step) : null;
                }),
                borderColor: colour(i * pick(s).length + j),
                backgroundColor: colour(i * pick(s).length + j),
                borderDash: line.dash ?? [],
                pointRadius: labels.map(value => s.steps.find(x => x.value === value)?.recommended ? 7 : 3),
                spanGaps: true,
                tension: 0,
            }))),
        },
        options: common(title, 'swept value', unit),
    };
}

function common(chartTitle, xTitle, unit) {
    return {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
            title: { ...titleStyle, text: chartTitle },
            legend,
        },
        scales: {
            x: { title: { display: true, text: xTitle } },
            y: { beginAtZero: true, title: { display: true, text: unit } },
        },
    };
}

function hockeyStick(series) {
    return {
        type: 'scatter',
        data: {
            datasets: series.flatMap((s, i) => [
                { label: 'p50', value: step => step.p50, dash: [4, 3] },
                { label: 'p99', value: step => step.p99 },
            ].map((line, j) => ({
                label: (s.name ? `${s.name} · ` : '') + line.label,
                data: s.steps.filter(step => step.throughput != null && line.value(step) != null)
                    .map(step => ({ x: step.throughput, y: line.value(step), value: step.value })),
                showLine: true,
                borderColor: colour(i * 2 + j),
                backgroundColor: colour(i * 2 + j),
                borderDash: line.dash ?? [],
                pointRadius: s.steps.filter(step => step.throughput != null && line.value(step) != null).map(step => step.recommended ? 7 : 3),
                tension: 0,
            }))),
        },
        options: {
            ...common('Latency against throughput', 'inserts/s', 'ms'),
            scales: {
                // From the lowest throughput measured, not from 0: steps close together would otherwise sit in a heap at
                // the right edge. Latency on a log axis, so p50 and p99 are both readable.
                x: { type: 'linear', grace: '5%', title: { display: true, text: 'inserts/s' } },
                y: latencyAxis(),
            },
            plugins: {
                ...common('Latency against throughput').plugins,
                tooltip: { callbacks: { afterLabel: context => `value ${context.raw.value}` } },
            },
        },
    };
}

export function draw(root, series, labels) {
    release(root);
    const canvas = name => root.querySelector(`canvas[data-chart="${name}"]`);
    const charts = [
        new window.Chart(canvas('throughput'), byValue('Throughput against the swept value', 'inserts/s',
            () => [{ label: 'inserts/s (steady window)', value: step => step.throughput }], series, labels)),
        new window.Chart(canvas('latency'), hockeyStick(series)),
        new window.Chart(canvas('throttled'), byValue('Throttled share and client CPU', '%',
            () => [
                { label: 'throttled %', value: step => step.throttledPercent },
                { label: 'client CPU %', value: step => step.clientCpuPercent, dash: [4, 3] },
            ], series, labels)),
    ];
    drawn.set(root, charts);
    // For the browser tests and anyone scripting the page: how many steps are drawn.
    root.dataset.points = String(series.reduce((total, s) => total + s.steps.filter(step => step.throughput != null).length, 0));
}

export function release(root) {
    for (const chart of drawn.get(root) ?? []) chart.destroy();
    drawn.delete(root);
}
