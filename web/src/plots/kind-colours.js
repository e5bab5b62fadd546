// One colour per positional kind, by the kind's index in the engine's registry
// (M.positionalKinds()), so a kind has the same colour on every chart that shows it (compare,
// extrapolation, the RoPE scalings). The first seven are Okabe & Ito's (2008) colour-blind-safe
// palette (loss-chart.js OKABE_ITO, the same order), then four of Paul Tol's "muted" scheme
// (wine, olive, indigo, teal), which stay apart from them; past eleven the palette repeats.
// It does not know kind names: callers pass the registry index.
//
//   kindColour(3) -> '#D55E00'     kindColour(8) -> '#999933'
import { OKABE_ITO } from './loss-chart.js';

export const KIND_COLOURS = [...OKABE_ITO, '#882255', '#999933', '#332288', '#44AA99'];

// registry index (an integer >= 0) -> '#RRGGBB'
export function kindColour(index) {
  const n = KIND_COLOURS.length;
  return KIND_COLOURS[((index % n) + n) % n];
}
