// The MCP bench's floor: a process that does what `devindex mcp` does for a search, without MCP.
// One JSON line in (the search's params), the same DevIndexClient search and the same answer text as the
// tool's, one JSON line out ({ text }). What `devindex mcp` costs above this is the protocol and the SDK on
// both sides; what this costs above the direct call is the process hop itself.
// Usage: node relayProbe.js <baseUrl>
import { createInterface } from 'node:readline';
import { DevIndexClient } from '../src/api/client';
import type { SearchParams } from '../src/api/params';
import { MoreCache } from '../src/tools/moreCache';
import { DEFAULT_MAX_CHARS } from '../src/tools/modelText';
import { searchAnswer } from '../src/tools/searchAnswer';
import { HttpTransport } from '../src/api/http';

const client = new DevIndexClient({ transport: new HttpTransport(), baseUrl: process.argv[2]! });
const cache = new MoreCache();
let queue = Promise.resolve();
createInterface({ input: process.stdin })
  .on('line', (line) => {
    queue = queue.then(async () => {
      const params = JSON.parse(line) as SearchParams;
      const res = await client.search(params);
      process.stdout.write(
        `${JSON.stringify({ text: searchAnswer(params, res, { maxChars: DEFAULT_MAX_CHARS, cache }).text })}\n`,
      );
    });
  })
  .on('close', () => {
    void queue.then(() => client.close());
  });
