// tests/browser/devtools.js: Chromium driven through its DevTools Protocol over
// --remote-debugging-pipe, file descriptors 3 (in) and 4 (out), one JSON message
// per NUL: nothing but Node.js and the browser. Used by the browser checks
// (tests/browser/check_pages.js, tests/web/check.js).
'use strict';
const {spawn} = require('child_process');
const fs = require('fs'), os = require('os'), path = require('path');

// Headless, and no connection of Chromium's own (this machine's network refuses them).
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
               '--disable-background-networking', '--disable-component-update', '--disable-sync',
               '--disable-extensions', '--mute-audio', '--hide-scrollbars', '--remote-debugging-pipe'];

class Browser {
  constructor(chromium) {
    this.profile = fs.mkdtempSync(path.join(os.tmpdir(), 'browser-check-'));
    this.process = spawn(chromium, [...FLAGS, '--user-data-dir=' + this.profile, 'about:blank'],
                         {stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe']});
    this.stderr = '';
    this.process.stderr.on('data', d => { this.stderr = (this.stderr + d).slice(-4000); });
    this.next = 1;
    this.waiting = new Map();
    this.listeners = new Set();
    let pending = Buffer.alloc(0);
    this.process.stdio[4].on('data', chunk => {
      pending = Buffer.concat([pending, chunk]);
      for (let end; (end = pending.indexOf(0)) >= 0; pending = pending.subarray(end + 1))
        this.receive(JSON.parse(pending.subarray(0, end).toString('utf8')));
    });
    this.exited = new Promise(resolve => this.process.on('exit', resolve));
  }
  send(method, params = {}, sessionId) {
    const id = this.next++;
    this.process.stdio[3].write(JSON.stringify({id, method, params, ...(sessionId ? {sessionId} : {})}) + '\0');
    return new Promise((resolve, reject) => this.waiting.set(id, {resolve, reject, method}));
  }
  receive(message) {
    const waiter = this.waiting.get(message.id);
    if (waiter) {
      this.waiting.delete(message.id);
      if (message.error) waiter.reject(new Error(waiter.method + ': ' + message.error.message));
      else waiter.resolve(message.result);
    } else {
      for (const listener of this.listeners) listener(message);
    }
  }
  async close() {
    this.send('Browser.close').catch(() => {});
    const killer = setTimeout(() => this.process.kill('SIGKILL'), 3000);
    await this.exited;
    clearTimeout(killer);
    fs.rmSync(this.profile, {recursive: true, force: true});
  }
}

module.exports = {Browser};
