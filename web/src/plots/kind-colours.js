// One colour per positional kind, by its index in the engine's registry, so a kind has the same
// colour in every chart of the page that shows several kinds (compare, extrapolation, the RoPE
// scalings). Okabe & Ito's seven colours (loss-chart.js), then four of Paul Tol's "muted" set,
// which stay apart from them and from each other for the common colour-vision deficiencies.
// Beyond eleven kinds the colours repeat.
//
//   kindColour(3) -> '#D55E00'     kindColour(8) -> '#999933'
import { OKABE_ITO } from './loss-chart.js';

export const KIND_COLOURS = [...OKABE_ITO, '#882255', '#999933', '#332288', '#44AA99'];

export const kindColour = (index) => KIND_COLOURS[index % KIND_COLOURS.length];
