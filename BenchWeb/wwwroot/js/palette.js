// The charts' colours, in one place: Okabe and Ito's eight, told apart by people with any common form of colour
// blindness. Within one chart of up to eight series no two share a colour (a sweep of five series' p50 and p99 has ten:
// there the dash tells p50 from p99); dashes only add to a colour, never replace it.

export const colours = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];

// The k-th series of a chart.
export function colour(k) {
    return colours[k % colours.length];
}

// A chart's title as a heading: the size and weight of the page's h3, in the text colour.
export const title = { display: true, align: 'start', color: '#1f2328', font: { size: 15, weight: '600' }, padding: { bottom: 8 } };

// The legend draws each series as a short line in its colour and dash, the way it is drawn on the chart.
export const legend = { position: 'bottom', labels: { usePointStyle: true, pointStyle: 'line', pointStyleWidth: 28, color: '#1f2328' } };

// A series' name in a legend: a long one (a run's name may have 200 characters) cut with an ellipsis, so that every
// series keeps a place in its chart's legend.
export function legendLabel(text, max = 48) {
    return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

// A value for a log axis: a latency of 0 (an old row, an import) or none is a gap, never the axis's floor, which would
// pull the whole axis down a decade (the charts hand Chart.js their points unparsed).
export function logValue(value) {
    return value > 0 ? value : null;
}

// A latency axis: logarithmic, so a p50 of a few milliseconds and a p99 of hundreds are both readable.
export function latencyAxis(unit = 'ms') {
    return { type: 'logarithmic', title: { display: true, text: `${unit} (log scale)` } };
}
