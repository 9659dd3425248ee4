// The charts of a sweep: throughput against the swept value, latency against throughput (the "hockey stick": flat
// while the service keeps up, steep past the knee), and the throttled share and client CPU against the value. The
// sweep page imports this module and calls draw() with one series per series of the sweep (one when there is none);
// the recommended step of each is drawn larger. Chart.js is loaded by the app's page (window.Chart, from wwwroot/lib).

const palette = ['#1f6feb', '#cf222e', '#1a7f37', '#8250df', '#bc4c00'];

const drawn = new WeakMap();

// A category axis keeps the values in the sweep's order and spacing whatever they are (numbers, Gateway/Direct, true/false).
function byValue(title, unit, pick, series, labels) {
    return {
        type: 'line',
        data: {
            labels,
            datasets: series.flatMap((s, i) => pick(s).map(line => ({
                label: (s.name ? `${s.name} · ` : '') + line.label,
                data: labels.map(value => {
                    const step = s.steps.find(x => x.value === value);
                    return step ? line.value(step) : null;
                }),
                borderColor: palette[i % palette.length],
                backgroundColor: palette[i % palette.length],
                borderDash: line.dash ?? [],
                pointRadius: labels.map(value => s.steps.find(x => x.value === value)?.recommended ? 7 : 3),
                spanGaps: true,
                tension: 0,
            }))),
        },
        options: common(title, 'swept value', unit),
    };
}

function common(title, xTitle, unit) {
    return {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        plugins: {
            title: { display: true, text: title, align: 'start', font: { weight: '600' } },
            legend: { position: 'bottom', labels: { boxWidth: 12 } },
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
            ].map(line => ({
                label: (s.name ? `${s.name} · ` : '') + line.label,
                data: s.steps.filter(step => step.throughput != null && line.value(step) != null)
                    .map(step => ({ x: step.throughput, y: line.value(step), value: step.value })),
                showLine: true,
                borderColor: palette[i % palette.length],
                backgroundColor: palette[i % palette.length],
                borderDash: line.dash ?? [],
                pointRadius: s.steps.filter(step => step.throughput != null && line.value(step) != null).map(step => step.recommended ? 7 : 3),
                tension: 0,
            }))),
        },
        options: {
            ...common('Latency against throughput', 'inserts/s', 'ms'),
            scales: {
                x: { type: 'linear', beginAtZero: true, title: { display: true, text: 'inserts/s' } },
                y: { beginAtZero: true, title: { display: true, text: 'ms' } },
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
            () => [{ label: 'inserts/s', value: step => step.throughput }], series, labels)),
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
