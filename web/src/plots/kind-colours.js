// One colour per positional kind, by the kind's index in the engine's registry
// (M.positionalKinds()), so a kind has the same colour on every chart that shows it. The first
// seven are Okabe & Ito's (2008) colour-blind-safe palette (loss-chart.js OKABE_ITO, the same
// order), then three of Paul Tol's "muted" scheme (wine, teal, olive), which stay apart from
// them; past ten the palette repeats, and a chart that could show more adds dashes.
// It does not know kind names: callers pass the registry index.
//
//   kindColour(kinds.findIndex((k) => k.name === 'rope-yarn'))   // -> a CSS colour '#RRGGBB'
import { OKABE_ITO } from './loss-chart.js';

export const KIND_COLOURS = [...OKABE_ITO, '#882255', '#44AA99', '#999933'];

// registry index (an integer >= 0) -> '#RRGGBB'
export function kindColour(index) {
  const n = KIND_COLOURS.length;
  return KIND_COLOURS[((index % n) + n) % n];
}
