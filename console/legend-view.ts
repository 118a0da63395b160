// The legend (legend.ts) as HTML elements.
import { type Legend, number } from './legend';

/** The legend as HTML elements. */
export function legendElement(legend: Legend): HTMLElement {
  const root = document.createElement('div');
  root.className = 'legend';
  if (legend.kind === 'text') {
    root.textContent = legend.text;
    return root;
  }
  if (legend.kind === 'ramp') {
    const bar = document.createElement('div');
    bar.className = 'legend-ramp';
    bar.style.background = `linear-gradient(to right, ${legend.colours.join(', ')})`;
    const labels = document.createElement('div');
    labels.className = 'legend-labels';
    for (const value of [legend.min, (legend.min + legend.max) / 2, legend.max]) {
      const label = document.createElement('span');
      label.textContent = number(value);
      labels.append(label);
    }
    root.append(bar, labels);
    return root;
  }
  for (const { colour, label } of legend.classes) {
    const row = document.createElement('div');
    row.className = 'legend-class';
    const swatch = document.createElement('span');
    swatch.className = 'legend-swatch';
    swatch.style.background = colour;
    row.append(swatch, document.createTextNode(label));
    root.append(row);
  }
  if (legend.note) {
    const note = document.createElement('div');
    note.className = 'legend-note';
    note.textContent = legend.note;
    root.append(note);
  }
  return root;
}
