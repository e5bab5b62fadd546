// At most one draw per animation frame: plots call the returned function as often as data
// arrives, and `draw` runs once in the next frame with whatever is newest.
//
//   this.schedule = onNextFrame(() => this.draw());
//   this.schedule(); this.schedule();   // one draw
export function onNextFrame(draw) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      draw();
    });
  };
}
