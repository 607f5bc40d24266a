// The host's transport (the default a client gets when none is passed). Host-neutral: this module and its siblings
// re-export the Node host (src/host/node/); the web bundle resolves every src/host/node/ module to the file of the
// same name in src/host/browser/ (scripts/webBuild.mjs). No module outside src/host/ names a host.
export { createTransport } from './node/transport';
