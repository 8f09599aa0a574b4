// tests/web/worker.js: the start of the Web Worker a page runs its program in
// (tests/web/page.html makes the worker from this, then the program's own
// JavaScript from em++, in one piece). The page puts JOB before it:
//   var JOB = {args: [...], name: "15_2_Lab5_Training", folders: [["--svg", "dir"], ...]};
// It hands the program its arguments with argv[0] its native name, takes stdout
// and stderr byte by byte, posting them a line at a time, and when the program
// ends posts its exit status and every file it wrote (--svg, --html, --save).
// The program runs in /work, where the tiny model's checkpoint is packed.
// The program is inside the page, its WebAssembly among it: emscripten would fetch
// that from a data: URL if fetch were here, and then decodes it itself.
self.fetch = undefined;
var Module = (function () {
  var out = [], err = [], before = {};
  function send() {
    if (out.length) postMessage({stdout: new Uint8Array(out)});
    if (err.length) postMessage({stderr: new Uint8Array(err)});
    out = [];
    err = [];
  }
  // Every file under folder, as {path: modification time}.
  function files(folder, found) {
    FS.readdir(folder).forEach(function (name) {
      if (name === '.' || name === '..') return;
      var path = folder + '/' + name, info = FS.stat(path);
      if (FS.isDir(info.mode)) files(path, found);
      else found[path] = info.mtime.getTime();
    });
    return found;
  }
  function written() {
    var now = files('/work', {}), list = [];
    Object.keys(now).sort().forEach(function (path) {
      if (before[path] !== now[path]) list.push({name: path.slice('/work/'.length), bytes: FS.readFile(path)});
    });
    return list;
  }
  var ended = false;
  function end(status) {
    if (ended) return;
    ended = true;
    send();
    var list = [];
    try { list = written(); } catch (e) { /* the file system is gone after an abort */ }
    postMessage({status: status, files: list});
  }
  return {
    arguments: JOB.args,
    thisProgram: JOB.name,
    stdin: function () { return null; },  // end of input, as from </dev/null
    stdout: function (byte) { out.push(byte & 255); if ((byte & 255) === 10) send(); },
    stderr: function (byte) { err.push(byte & 255); if ((byte & 255) === 10) send(); },
    preRun: [function () {
      FS.mkdirTree('/work');
      FS.chdir('/work');
      // The folder an option names (--svg DIR), or the folder of a file it names (--html out/x.html).
      JOB.folders.forEach(function (option) {
        var at = JOB.args.indexOf(option[0]), value = at >= 0 ? JOB.args[at + 1] : undefined;
        if (value === undefined) return;
        var folder = option[1] === 'dir' ? value : value.slice(0, Math.max(0, value.lastIndexOf('/')));
        // (mkdirTree reads a relative path from the root: the program's folder is /work)
        if (folder) try { FS.mkdirTree(folder[0] === '/' ? folder : '/work/' + folder); } catch (e) { /* the program says what is wrong */ }
      });
      before = files('/work', {});
      postMessage({running: true});
    }],
    onExit: end,
    // A crash (an uncaught C++ exception, a thread the browser build cannot start):
    // natively the program would die of SIGABRT, which a shell reports as 134.
    onAbort: function (what) {
      var line = JOB.name + ': stopped by the browser: ' + (what || 'abort()') +
                 ' (this build has no threads and no C++ exceptions)\n';
      for (var i = 0; i < line.length; i++) err.push(line.charCodeAt(i) & 255);
      end(134);
    },
  };
})();
