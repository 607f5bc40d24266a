// The browser's transport: its own fetch (no proxies or CAs of ours; the browser has its own).
export { createTransport } from '../../api/fetchTransport';
