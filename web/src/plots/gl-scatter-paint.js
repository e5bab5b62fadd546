// 2-D painting of the point map (gl-scatter.js): the exported figure (PNG / SVG through
// plot-export.js: the map's canvas belongs to its drawing worker, so the view as shown is
// painted again on a 2-D context), with the layers the worker draws (scatter-scene.js): base
// colour or the column's colours, the selection and the search matches on top. Not here: the
// worker's drawing (scatter-worker.js), the axes (gl-scatter-view.js).
//
// Methods of GlScatter (gl-scatter.js copies them onto its prototype: mix-methods.js), so `this`
// is the scatter: this.data, this.colours, this.matches, this.selection,
// this.viewState are its fields.
import { plotTitle, titled } from './plot-export.js';
import { plotTheme } from './theme.js';
import { FONT_PX } from './gl-scatter-view.js';

const LABELLED_MATCHES = 40; // exported figures label the search matches when there are at most this many
const SVG_VECTOR_POINTS = 20000; // more points in view than this: the SVG carries them as one embedded image

export class ScatterPaint {
  figure() {
    const width = Math.max(200, this.root.clientWidth);
    const th = plotTheme(this.root, { light: true });
    return titled(plotTitle(this.root), [{ width, height: this.height, paint: (ctx) => this.paint(ctx, width, this.height, typeof ctx.getSerializedSvg === 'function', th) }]);
  }

  // The frame's points in the current view (base colour or the column's colours; the selection
  // and the search matches on top, as on screen), then the axes, in theme th. svg: many points
  // go in as one image at twice the CSS resolution instead of one <rect> each.
  paint(ctx, width, height, svg, th) {
    const M = this.margins();
    if (this.data) {
      const [w, h] = this.size();
      const { points, n } = this.data;
      const drawAll = (c) => this.paintPoints(c, th);
      let inView = 0;
      for (let i = 0; i < n && inView <= SVG_VECTOR_POINTS; i++) {
        const [px, py] = this.project(points[2 * i], points[2 * i + 1]);
        if (px >= 0 && py >= 0 && px <= w && py <= h) inView++;
      }
      ctx.save();
      ctx.translate(M.left, M.top);
      ctx.beginPath();
      ctx.rect(0, 0, w, h);
      ctx.clip();
      if (svg && inView > SVG_VECTOR_POINTS) {
        const layer = document.createElement('canvas');
        layer.width = w * 2;
        layer.height = h * 2;
        const lc = layer.getContext('2d');
        lc.scale(2, 2);
        drawAll(lc);
        ctx.drawImage(layer, 0, 0, w, h);
      } else {
        drawAll(ctx);
      }
      // a few search matches are labelled, as the tooltip names them on screen
      if (this.matches && this.matches.length <= LABELLED_MATCHES) {
        ctx.font = th.font(FONT_PX);
        ctx.fillStyle = th.label;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'bottom';
        for (const i of this.matches) {
          const [px, py] = this.project(points[2 * i], points[2 * i + 1]);
          if (px >= 0 && py >= 0 && px <= w && py <= h) ctx.fillText(String(this.data.labels[i] ?? `row ${i}`), px + 4, py - 2);
        }
      }
      ctx.restore();
    }
    this.paintAxes(ctx, th);
  }

  // The points in the current view on a 2-D context whose origin is the frame's corner: the
  // layers the worker draws, as squares (a PNG at 2x or an SVG of many <rect>s).
  // th: the theme to paint in (the screen's; a download passes the light one)
  paintPoints(c, th = plotTheme(this.root)) {
    const BASE = th.point;
    const [w, h] = this.size();
    const { points, n } = this.data;
    const rgba = (col, a) => `rgba(${col[0]}, ${col[1]}, ${col[2]}, ${a})`;
    // the view's transform inlined (project() allocates an array per point)
    const sc = 2 ** this.viewState.zoom;
    const [tx, ty] = this.viewState.target;
    const cols = this.colours;
    const rowsOf = { matches: this.matches, selection: this.selection };
    for (const { rows: which, radius, alpha, colour } of this.layers(th)) {
      const rows = which ? rowsOf[which] : null;
      const count = rows ? rows.length : n;
      const styles = new Map(); // packed rgba -> its CSS text (a column has few colours)
      const base = rgba(colour || BASE, colour ? alpha : (BASE[3] / 255) * alpha);
      let last = '';
      for (let k = 0; k < count; k++) {
        const i = rows ? rows[k] : k;
        const px = w / 2 + (points[2 * i] - tx) * sc;
        const py = h / 2 - (points[2 * i + 1] - ty) * sc;
        if (px < -radius || py < -radius || px > w + radius || py > h + radius) continue;
        let style = base;
        if (!colour && cols) {
          const key = ((cols[4 * i] << 24) | (cols[4 * i + 1] << 16) | (cols[4 * i + 2] << 8) | cols[4 * i + 3]) >>> 0;
          style = styles.get(key);
          if (style === undefined) {
            style = rgba([cols[4 * i], cols[4 * i + 1], cols[4 * i + 2]], (cols[4 * i + 3] / 255) * alpha);
            styles.set(key, style);
          }
        }
        if (style !== last) {
          c.fillStyle = style;
          last = style;
        }
        c.fillRect(px - radius, py - radius, 2 * radius, 2 * radius);
      }
    }
  }
}
