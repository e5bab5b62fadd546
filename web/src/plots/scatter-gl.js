// The point map's WebGL2 renderer, run in the map's worker (scatter-worker.js) on the
// OffscreenCanvas the page handed over: the layers of scatter-scene.js drawn as point sprites
// (gl.POINTS, a disc cut in the fragment shader), blended over the background as rasterise()
// blends them. Only its own GLSL is compiled; nothing is evaluated or loaded.
//
// Why not deck.gl, which drew the map on the main thread before: deck.gl 9.4's Deck does not
// start in a worker. Given an OffscreenCanvas it throws in its constructor (Deck._createCanvas
// assigns to canvas.style, which an OffscreenCanvas does not have: "Cannot convert undefined or
// null to object", tried in headless Chromium 156), and it listens to its canvas for input. The
// map needs one kind of mark; this file is that mark, without the ~800 KB of deck.gl.
// Not here: choosing between this and the CPU rasteriser (scatter-worker.js), the scene (scatter-scene.js).
//
//   const r = new GlRenderer(gl);          // gl: a WebGL2 context of an OffscreenCanvas
//   r.setPoints(Float32Array n*2); r.setColours(Uint8Array n*4 | null); r.setRows(name, Int32Array | null);
//   r.draw(W, H, dpr, view, { base, background, layers });   // -> discs drawn (before clipping)
//   r.read(x, y, w, h) -> Uint8Array RGBA, row 0 at the top (the probe of the browser tests)

const VERTEX = `#version 300 es
in vec2 position;
in vec4 colour;
uniform vec2 target;
uniform float scale;    // device pixels per data unit
uniform vec2 halfSize;  // half the canvas in device pixels
uniform float size;     // the disc's diameter in device pixels
uniform vec4 fixedColour;
uniform float useFixed; // 1: fixedColour; 0: the row's colour
uniform float alpha;
out vec4 vColour;
void main() {
  vec2 p = (position - target) * scale;
  // pixel centres as rasterise() rounds them: floor of the exact position, +0.5
  vec2 px = floor(halfSize + vec2(p.x, -p.y)) + 0.5;
  gl_Position = vec4(px.x / halfSize.x - 1.0, 1.0 - px.y / halfSize.y, 0.0, 1.0);
  gl_PointSize = size;
  vec4 c = mix(colour, fixedColour, useFixed);
  vColour = vec4(c.rgb, c.a * alpha);
}`;

const FRAGMENT = `#version 300 es
precision highp float;
in vec4 vColour;
uniform float radius;   // device pixels
uniform float size;
out vec4 outColour;
void main() {
  vec2 d = (gl_PointCoord - 0.5) * size;
  if (dot(d, d) > radius * radius) discard;
  outColour = vColour;
}`;

export class GlRenderer {
  constructor(gl) {
    this.gl = gl;
    const compile = (type, source) => {
      const sh = gl.createShader(type);
      gl.shaderSource(sh, source);
      gl.compileShader(sh);
      if (!gl.getShaderParameter(sh, gl.COMPILE_STATUS)) throw new Error(`map shader: ${gl.getShaderInfoLog(sh)}`);
      return sh;
    };
    const prog = gl.createProgram();
    gl.attachShader(prog, compile(gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(prog, compile(gl.FRAGMENT_SHADER, FRAGMENT));
    gl.bindAttribLocation(prog, 0, 'position');
    gl.bindAttribLocation(prog, 1, 'colour');
    gl.linkProgram(prog);
    if (!gl.getProgramParameter(prog, gl.LINK_STATUS)) throw new Error(`map shaders: ${gl.getProgramInfoLog(prog)}`);
    this.prog = prog;
    this.u = {};
    for (const name of ['target', 'scale', 'halfSize', 'size', 'fixedColour', 'useFixed', 'alpha', 'radius']) this.u[name] = gl.getUniformLocation(prog, name);
    this.maxSize = gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE)[1];
    this.points = null;
    this.colours = null;
    this.rows = {}; // name -> {rows, vao} (a layer of some rows: gathered positions and colours)
    this.all = null; // the vao of every row
  }

  // A vertex array of positions (Float32Array n*2) and colours (Uint8Array n*4, or none: the
  // attribute is then a constant and the layers use their fixed or base colour).
  vao(positions, colours) {
    const gl = this.gl;
    const vao = gl.createVertexArray();
    gl.bindVertexArray(vao);
    const buffers = [];
    // attribute `at` from data, `size` components of `type` (normalised: bytes as 0..1)
    const attribute = (at, data, size, type, normalised) => {
      const b = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, b);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      gl.enableVertexAttribArray(at);
      gl.vertexAttribPointer(at, size, type, normalised, 0, 0);
      buffers.push(b);
    };
    attribute(0, positions, 2, gl.FLOAT, false);
    if (colours) attribute(1, colours, 4, gl.UNSIGNED_BYTE, true);
    else gl.disableVertexAttribArray(1);
    gl.bindVertexArray(null);
    return { vao, buffers, count: positions.length >> 1, coloured: !!colours };
  }

  drop(v) {
    if (!v) return;
    this.gl.deleteVertexArray(v.vao);
    for (const b of v.buffers) this.gl.deleteBuffer(b);
  }

  rebuild() {
    this.drop(this.all);
    this.all = this.points ? this.vao(this.points, this.colours) : null;
    for (const name of Object.keys(this.rows)) this.setRows(name, this.rows[name].rows);
  }

  setPoints(points) {
    this.points = points;
    this.rebuild();
  }

  setColours(colours) {
    this.colours = colours;
    this.rebuild();
  }

  // The rows of a layer (search matches, the lasso's selection), gathered into their own arrays.
  setRows(name, rows) {
    this.drop(this.rows[name]?.v);
    if (!rows || !this.points) {
      delete this.rows[name];
      if (rows) this.rows[name] = { rows, v: null };
      return;
    }
    const pos = new Float32Array(rows.length * 2);
    const col = this.colours ? new Uint8Array(rows.length * 4) : null;
    rows.forEach((r, k) => {
      pos[2 * k] = this.points[2 * r];
      pos[2 * k + 1] = this.points[2 * r + 1];
      if (col) col.set(this.colours.subarray(4 * r, 4 * r + 4), 4 * k);
    });
    this.rows[name] = { rows, v: this.vao(pos, col) };
  }

  draw(W, H, dpr, view, { base, background, layers }) {
    const gl = this.gl;
    gl.viewport(0, 0, W, H);
    gl.clearColor(background[0] / 255, background[1] / 255, background[2] / 255, 1);
    gl.clear(gl.COLOR_BUFFER_BIT);
    if (!this.all) return 0;
    gl.useProgram(this.prog);
    gl.enable(gl.BLEND);
    gl.blendFuncSeparate(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA, gl.ZERO, gl.ONE);
    const u = this.u;
    gl.uniform2f(u.target, view.target[0], view.target[1]);
    gl.uniform1f(u.scale, 2 ** view.zoom * dpr);
    gl.uniform2f(u.halfSize, W / 2, H / 2);
    let drawn = 0;
    for (const layer of layers) {
      const v = layer.rows ? this.rows[layer.rows]?.v : this.all;
      if (!v || !v.count) continue;
      const radius = Math.max(0.5, layer.radius * dpr);
      const size = Math.min(this.maxSize, 2 * Math.ceil(radius) + 1);
      gl.uniform1f(u.radius, radius);
      gl.uniform1f(u.size, size);
      gl.uniform1f(u.alpha, layer.alpha);
      const fixed = layer.colour || (v.coloured ? null : base);
      gl.uniform1f(u.useFixed, fixed ? 1 : 0);
      if (fixed) gl.uniform4f(u.fixedColour, fixed[0] / 255, fixed[1] / 255, fixed[2] / 255, (layer.colour ? 255 : fixed[3]) / 255);
      gl.bindVertexArray(v.vao);
      if (!v.coloured || fixed) gl.vertexAttrib4f(1, 0, 0, 0, 0);
      gl.drawArrays(gl.POINTS, 0, v.count);
      drawn += v.count;
    }
    gl.bindVertexArray(null);
    return drawn;
  }

  read(x, y, w, h) {
    const gl = this.gl;
    const H = gl.drawingBufferHeight;
    const flipped = new Uint8Array(w * h * 4);
    gl.readPixels(x, H - y - h, w, h, gl.RGBA, gl.UNSIGNED_BYTE, flipped);
    const out = new Uint8Array(w * h * 4);
    for (let r = 0; r < h; r++) out.set(flipped.subarray((h - 1 - r) * w * 4, (h - r) * w * 4), r * w * 4);
    return out;
  }
}
