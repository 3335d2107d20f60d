// Loaded into js-debug's server with `node --require`: every TCP socket it accepts or opens sends each
// write at once (TCP_NODELAY). Without it, a reply written while an earlier one is still unacknowledged
// waits for the peer's delayed ACK, up to 40 ms on Linux, several times a step.
"use strict";
const net = require("net");

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
    this.noDelay = true; // what net.createServer({ noDelay: true }) sets: applied to each accepted socket
    return listen.apply(this, args);
};

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (...args) {
    this.setNoDelay(true); // kept until the socket has its handle, then applied
    return connect.apply(this, args);
};
