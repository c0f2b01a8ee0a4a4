/**
 * A live one-line progress indicator on stderr: rewritten in place on a TTY (\r + clear line),
 * printed as plain lines at most every few seconds otherwise (CI logs stay short). Its timer is
 * unref'd so it never keeps the process alive. Results never go to stderr; this is display only.
 */
export function createProgress({ stream = process.stderr, intervalMs = 250, plainEveryMs = 5000 } = {}) {
  const tty = Boolean(stream.isTTY);
  let stage = '';
  let detail = '';
  let requests = 0;
  let lastPlain = 0;
  const t0 = Date.now();
  const render = () => {
    const secs = ((Date.now() - t0) / 1000).toFixed(0);
    return `[bench ${secs}s] ${stage}${detail ? ' · ' + detail : ''} · ${requests} requests`;
  };
  const draw = (force = false) => {
    if (tty) {
      const cols = stream.columns || 120;
      stream.write('\r\x1b[2K' + render().slice(0, cols - 1));
    } else if (force || Date.now() - lastPlain >= plainEveryMs) {
      lastPlain = Date.now();
      stream.write(render() + '\n');
    }
  };
  const timer = setInterval(() => draw(), tty ? intervalMs : plainEveryMs);
  timer.unref();
  return {
    stage(name) {
      stage = name;
      detail = '';
      draw(true);
    },
    detail(text) {
      detail = text;
    },
    tick(n = 1) {
      requests += n;
    },
    get requests() {
      return requests;
    },
    /** print a full line above the progress line */
    log(line) {
      if (tty) stream.write('\r\x1b[2K');
      stream.write(line + '\n');
      if (tty) draw();
    },
    stop() {
      clearInterval(timer);
      if (tty) stream.write('\r\x1b[2K');
    },
  };
}
