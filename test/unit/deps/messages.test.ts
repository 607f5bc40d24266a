import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cleanMessage } from '../../../src/deps/messages';
import {
  npmPackageOfSpecifier,
  packageOfPath,
  packagesInText,
  packagesOfProblem,
  refKey,
} from '../../../src/deps/packageRefs';

interface Case {
  kind: string;
  text: string;
  want: string[];
  not: Array<string | RegExp>;
}

const ABS = /(?:^|\s)(?:\/[\w.@-]+){2,}|[A-Z]:\\/;
const LINECOL = /\.\w+:\d+|\(\d+,\d+\)/;

// Real-shaped messages: TypeScript, ESLint, Rust, Go, Python problems and stack traces, Node traces.
const corpus: Case[] = [
  {
    kind: 'ts',
    text: "Cannot find module 'keel-schema' or its corresponding type declarations.",
    want: ["Cannot find module 'keel-schema' or its corresponding type declarations."],
    not: [],
  },
  {
    kind: 'ts',
    text: "Could not find a declaration file for module 'keel-schema'. '/home/dev/app/node_modules/keel-schema/dist/index.js' implicitly has an 'any' type.",
    want: ['Could not find a declaration file for module', 'keel-schema', "implicitly has an 'any' type"],
    not: ['/home/dev', 'dist/index.js'],
  },
  {
    kind: 'ts',
    text: "Module '\"fetchline\"' has no exported member 'retryPolicy'. Did you mean to use 'import retryPolicy from \"fetchline\"' instead?",
    want: ["has no exported member 'retryPolicy'"],
    not: [],
  },
  {
    kind: 'tsc',
    text: "src/client.ts(14,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    want: ['client.ts', 'TS2322', "Type 'string' is not assignable to type 'number'."],
    not: ['(14,7)', 'src/client.ts'],
  },
  {
    kind: 'tsc',
    text: "/Users/ana/work/api/src/routes/user.ts:42:13 - error TS2339: Property 'email' does not exist on type 'User'.\n\n42     return user.email;\n               ~~~~~",
    want: ['user.ts', 'TS2339', "Property 'email' does not exist on type 'User'."],
    not: ['/Users/ana', ':42:13', '~~~~~'],
  },
  {
    kind: 'ts',
    text: "Argument of type '{ retries: number; }' is not assignable to parameter of type 'Options'.\n  Object literal may only specify known properties, and 'retries' does not exist in type 'Options'.",
    want: ["'retries' does not exist in type 'Options'"],
    not: [],
  },
  {
    kind: 'eslint',
    text: "'response' is assigned a value but never used. (@typescript-eslint/no-unused-vars)",
    want: ["'response' is assigned a value but never used.", '@typescript-eslint/no-unused-vars'],
    not: [],
  },
  {
    kind: 'eslint',
    text: '/home/ci/build/7f3a9c2e1b4d/src/index.js\n  12:5  error  Unexpected console statement  no-console\n  18:1  error  Parsing error: Unexpected token export\n\n✖ 2 problems (2 errors, 0 warnings)',
    want: ['Unexpected console statement', 'no-console', 'Parsing error: Unexpected token export'],
    not: ['12:5', '18:1', '/home/ci', '7f3a9c2e1b4d'],
  },
  {
    kind: 'eslint',
    text: "Error: Failed to load plugin 'react' declared in '.eslintrc.json': Cannot find module 'eslint-plugin-react'\nRequire stack:\n- /home/me/proj/__placeholder__.js\nReferenced from: /home/me/proj/.eslintrc.json",
    want: ["Failed to load plugin 'react'", "Cannot find module 'eslint-plugin-react'"],
    not: ['/home/me/proj'],
  },
  {
    kind: 'rust',
    text: 'error[E0432]: unresolved import `tokio::time::sleepy`\n --> src/main.rs:3:5\n  |\n3 | use tokio::time::sleepy;\n  |     ^^^^^^^^^^^^^^^^^^^ no `sleepy` in `time`',
    want: ['error[E0432]: unresolved import `tokio::time::sleepy`'],
    not: ['src/main.rs:3:5', '^^^^'],
  },
  {
    kind: 'rust',
    text: 'error[E0599]: no method named `acquire_many` found for struct `RateLane` in the current scope\n   --> /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.4.2/src/lib.rs:88:14',
    want: ['E0599', 'no method named `acquire_many` found for struct `RateLane`'],
    not: ['6f17d22bba15001f', '.cargo'],
  },
  {
    kind: 'rust-panic',
    text: "thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.4.2/src/bucket.rs:112:9:\nbucket capacity must be non-zero\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    want: ["thread 'main' panicked at", 'ratelane', 'bucket capacity must be non-zero'],
    not: ['112:9', 'RUST_BACKTRACE', '/home/u'],
  },
  {
    kind: 'rust-backtrace',
    text: 'thread \'main\' panicked at src/main.rs:9:5:\ncalled `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound, message: "No such file or directory" }\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\n   2: core::result::unwrap_failed\n             at /rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/result.rs:1653:5',
    want: ['called `Result::unwrap()` on an `Err` value', 'No such file or directory'],
    not: ['90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf', 'rust_begin_unwind', '1653:5'],
  },
  {
    kind: 'go',
    text: './main.go:14:2: undefined: tollgate.NewLimiterWithBurst',
    want: ['main.go', 'undefined: tollgate.NewLimiterWithBurst'],
    not: ['14:2', './main.go'],
  },
  {
    kind: 'go',
    text: 'main.go:5:2: no required module provides package github.com/gridworks/tollgate/v2/limiter; to add it:\n\tgo get github.com/gridworks/tollgate/v2/limiter',
    want: ['no required module provides package github.com/gridworks/tollgate/v2/limiter'],
    not: ['5:2'],
  },
  {
    kind: 'go-panic',
    text: 'panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a5b2c]\n\ngoroutine 1 [running]:\ngithub.com/gridworks/tollgate/v2.(*Limiter).Take(0x0)\n\t/home/u/go/pkg/mod/github.com/gridworks/tollgate/v2@v2.1.0/limiter.go:88 +0x1c\nmain.main()\n\t/home/u/app/main.go:14 +0x25\nexit status 2',
    want: ['panic: runtime error: invalid memory address or nil pointer dereference'],
    not: ['goroutine', '+0x1c', '0x4a5b2c', 'exit status', '/home/u'],
  },
  {
    kind: 'go-vet',
    text: 'github.com/acme/svc/internal/db: /home/runner/work/svc/svc/internal/db/conn.go:31:2: context.WithTimeout: the cancel function is not used on all paths (possible context leak)',
    want: ['conn.go', 'the cancel function is not used on all paths (possible context leak)'],
    not: ['/home/runner', '31:2'],
  },
  {
    kind: 'python',
    text: 'Import "httpwell" could not be resolved',
    want: ['Import "httpwell" could not be resolved'],
    not: [],
  },
  {
    kind: 'python-trace',
    text: 'Traceback (most recent call last):\n  File "/home/dev/app/main.py", line 12, in <module>\n    client.fetch("https://internal.example.net/api/v1/items/8c1f2a9e-77d0-4a3b-9c55-1e2f3a4b5c6d")\n  File "/home/dev/app/.venv/lib/python3.12/site-packages/httpwell/client.py", line 219, in fetch\n    raise RetryBudgetExceeded(f"gave up after {attempts} attempts")\nhttpwell.errors.RetryBudgetExceeded: gave up after 5 attempts',
    want: ['httpwell.errors.RetryBudgetExceeded: gave up after 5 attempts'],
    not: ['Traceback', 'line 219', 'site-packages', '8c1f2a9e', 'raise RetryBudgetExceeded(f'],
  },
  {
    kind: 'python-mypy',
    text: 'app/models.py:27: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]',
    want: ['models.py', 'Incompatible types in assignment', '[assignment]'],
    not: [':27'],
  },
  {
    kind: 'python-pip',
    text: 'ERROR: Could not find a version that satisfies the requirement shapeshift==9.9.9 (from versions: 1.0.0, 1.1.0)\nERROR: No matching distribution found for shapeshift==9.9.9',
    want: [
      'Could not find a version that satisfies the requirement shapeshift==9.9.9',
      'No matching distribution found',
    ],
    not: [],
  },
  {
    kind: 'node-trace',
    text: "TypeError: Cannot read properties of undefined (reading 'headers')\n    at Fetchline.request (/srv/app/node_modules/fetchline/dist/client.js:211:31)\n    at async Promise.all (index 0)\n    at async main (file:///srv/app/src/main.mjs:8:3)",
    want: ["TypeError: Cannot read properties of undefined (reading 'headers')"],
    not: ['node_modules', '211:31', 'Promise.all'],
  },
  {
    kind: 'node-esm',
    text: "node:internal/modules/esm/resolve:854\n  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);\n        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'keel-schema' imported from /Users/ana/proj/src/index.js\n    at packageResolve (node:internal/modules/esm/resolve:854:9)\n\nNode.js v20.11.0",
    want: ["Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'keel-schema' imported from index.js"],
    not: ['/Users/ana', 'Node.js v20', 'packageResolve'],
  },
  {
    kind: 'node-http',
    text: '\u001b[31mError: request 7f9c2e1ab34d4e5f9a8b7c6d5e4f3a2b failed at 2026-11-23T20:51:44.123Z: socket hang up\u001b[39m (pid 483920)',
    want: ['Error: request', 'failed at', 'socket hang up'],
    not: ['\u001b', '7f9c2e1ab34d4e5f9a8b7c6d5e4f3a2b', '2026-11-23', '483920'],
  },
  {
    kind: 'windows',
    text: 'C:\\Users\\ana\\proj\\node_modules\\fetchline\\dist\\client.js:88\n        throw new RetryError(`retry budget exhausted`);\nRetryError: retry budget exhausted',
    want: ['fetchline', 'RetryError: retry budget exhausted'],
    not: ['C:\\', 'Users\\ana'],
  },
];

test(`noise removal on a corpus of ${corpus.length} real-shaped messages`, () => {
  assert.ok(corpus.length >= 20);
  for (const c of corpus) {
    const q = cleanMessage(c.text);
    for (const w of c.want) assert.ok(q.includes(w), `[${c.kind}] keeps ${JSON.stringify(w)}: ${JSON.stringify(q)}`);
    for (const n of c.not)
      assert.ok(
        typeof n === 'string' ? !q.includes(n) : !n.test(q),
        `[${c.kind}] drops ${String(n)}: ${JSON.stringify(q)}`,
      );
    assert.doesNotMatch(q, ABS, `[${c.kind}] no absolute path left: ${JSON.stringify(q)}`);
    assert.doesNotMatch(q, LINECOL, `[${c.kind}] no line:column left: ${JSON.stringify(q)}`);
    assert.ok(q.length > 0 && q.length <= 400, `[${c.kind}] a query of 1 to 400 characters`);
    assert.ok(!/\s{2,}/.test(q), `[${c.kind}] whitespace folded`);
  }
});

test('noise removal covers every ecosystem the issue names', () => {
  const kinds = new Set(corpus.map((c) => c.kind.split('-')[0]));
  for (const k of ['ts', 'eslint', 'rust', 'go', 'python', 'node']) assert.ok(kinds.has(k), k);
});

test('packageOfPath: the install layouts of npm, pnpm, Python, Cargo and Go', () => {
  const cases: Array<[string, string | undefined]> = [
    ['/srv/app/node_modules/fetchline/dist/client.js', 'npm:fetchline'],
    ['/srv/app/node_modules/@keel/schema/lib/index.js', 'npm:@keel/schema'],
    ['/srv/app/node_modules/.pnpm/fetchline@2.1.0/node_modules/fetchline/dist/x.js', 'npm:fetchline'],
    ['C:\\Users\\ana\\proj\\node_modules\\fetchline\\dist\\client.js', 'npm:fetchline'],
    ['/srv/app/node_modules/.bin/tsc', undefined],
    ['/home/dev/app/.venv/lib/python3.12/site-packages/httpwell/client.py', 'pypi:httpwell'],
    ['/usr/lib/python3/dist-packages/yaml/__init__.py', 'pypi:yaml'],
    ['/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/ratelane-0.4.2/src/lib.rs', 'cargo:ratelane'],
    ['/home/u/.cargo/registry/src/github.com-1ecc6299db9ec823/serde_json-1.0.108/src/de.rs', 'cargo:serde-json'],
    ['/home/u/go/pkg/mod/github.com/gridworks/tollgate/v2@v2.1.0/limiter.go', 'go:github.com/gridworks/tollgate/v2'],
    ['/home/u/go/pkg/mod/github.com/!burnt!sushi/toml@v1.3.2/decode.go', 'go:github.com/BurntSushi/toml'],
    ['/home/dev/app/src/main.ts', undefined],
  ];
  for (const [p, want] of cases) {
    const r = packageOfPath(p);
    assert.equal(r ? refKey(r) : undefined, want, p);
  }
});

test('stack frames -> packages, innermost first (Python prints it last)', () => {
  const node = corpus.find((c) => c.kind === 'node-trace')!.text;
  assert.deepEqual(packagesInText(node).map(refKey), ['npm:fetchline']);
  const py = corpus.find((c) => c.kind === 'python-trace')!.text;
  assert.deepEqual(packagesInText(py).map(refKey), ['pypi:httpwell']);
  const go = corpus.find((c) => c.kind === 'go-panic')!.text;
  assert.deepEqual(packagesInText(go).map(refKey), ['go:github.com/gridworks/tollgate/v2']);
  const rust = corpus.find((c) => c.kind === 'rust-panic')!.text;
  assert.deepEqual(packagesInText(rust).map(refKey), ['cargo:ratelane']);
  const two =
    'Error: boom\n    at a (/p/node_modules/keel-schema/x.js:1:1)\n    at b (/p/node_modules/fetchline/y.js:2:2)\n    at node:internal/process/task_queues:95:5';
  assert.deepEqual(packagesInText(two).map(refKey), ['npm:keel-schema', 'npm:fetchline']);
  const pyTwo =
    'Traceback (most recent call last):\n  File "/v/lib/python3.11/site-packages/requests/api.py", line 1, in get\n  File "/v/lib/python3.11/site-packages/urllib3/pool.py", line 9, in urlopen\nurllib3.exceptions.MaxRetryError: boom';
  assert.deepEqual(packagesInText(pyTwo).map(refKey), ['pypi:urllib3', 'pypi:requests']);
  assert.deepEqual(packagesInText('plain text without frames'), []);
});

test('npm package of an import specifier', () => {
  assert.equal(npmPackageOfSpecifier('fetchline'), 'fetchline');
  assert.equal(npmPackageOfSpecifier('fetchline/retry'), 'fetchline');
  assert.equal(npmPackageOfSpecifier('@keel/schema/zod'), '@keel/schema');
  assert.equal(npmPackageOfSpecifier('./local'), undefined);
  assert.equal(npmPackageOfSpecifier('../up'), undefined);
  assert.equal(npmPackageOfSpecifier('node:fs'), undefined);
  assert.equal(npmPackageOfSpecifier('fs'), undefined);
  assert.equal(npmPackageOfSpecifier('#internal'), undefined);
  assert.equal(npmPackageOfSpecifier('@scope'), undefined);
});

test('problem -> packages: specifier under the range, quoted module, paths, related information', () => {
  const keys = (p: Parameters<typeof packagesOfProblem>[0]) => packagesOfProblem(p).map(refKey);
  assert.deepEqual(
    keys({
      languageId: 'typescript',
      message:
        "Could not find a declaration file for module 'keel-schema'. '/w/node_modules/keel-schema/index.js' implicitly has an 'any' type.",
      rangeText: "'keel-schema'",
    }),
    ['npm:keel-schema'],
  );
  assert.deepEqual(
    keys({
      languageId: 'typescript',
      message: "Module '\"fetchline\"' has no exported member 'retryPolicy'.",
      rangeText: 'retryPolicy',
      lineText: "import { retryPolicy } from 'fetchline';",
    }),
    ['npm:fetchline'],
  );
  assert.deepEqual(
    keys({
      languageId: 'typescript',
      message: "Type 'X' is not assignable to type 'Y'.",
      relatedPaths: ['/w/node_modules/@keel/schema/index.d.ts'],
    }),
    ['npm:@keel/schema'],
  );
  assert.deepEqual(
    keys({ languageId: 'typescript', message: 'Unexpected any.', rangeText: 'x', lineText: 'const x: any = 1;' }),
    [],
  );
  assert.deepEqual(
    keys({
      languageId: 'python',
      message: 'Import "httpwell.retry" could not be resolved',
      rangeText: 'httpwell.retry',
      lineText: 'from httpwell.retry import Budget',
    }),
    ['pypi:httpwell'],
  );
  assert.deepEqual(
    keys({
      languageId: 'rust',
      message: 'unresolved import `ratelane::Bucket`',
      rangeText: 'ratelane::Bucket',
      lineText: 'use ratelane::Bucket;',
    }),
    ['cargo:ratelane'],
  );
  assert.deepEqual(
    keys({
      languageId: 'go',
      message: 'could not import github.com/gridworks/tollgate/v2/limiter (no required module provides package)',
      rangeText: '"github.com/gridworks/tollgate/v2/limiter"',
    }),
    ['go:github.com/gridworks/tollgate/v2/limiter'],
  );
  assert.deepEqual(
    keys({
      languageId: 'typescript',
      message: "Cannot find module './util' or its corresponding type declarations.",
      rangeText: "'./util'",
    }),
    [],
  );
});

test('qualified exception names and whole URLs stay; local file URLs and loopback with a port go', () => {
  assert.equal(
    cleanMessage(
      "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.org', port=443): Max retries exceeded",
    ),
    "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.org', port=443): Max retries exceeded",
  );
  assert.equal(
    cleanMessage(
      'io.netty.handler.codec.http2.Http2ConnectionPrefaceException: bad preface token aZ3kLmN0pQrStUvWxYz12345678',
    ),
    'io.netty.handler.codec.http2.Http2ConnectionPrefaceException: bad preface token',
  );
  assert.equal(
    cleanMessage(
      'Error: request to https://registry.example.org/pkg/-/pkg-1.0.0.tgz failed, reason: getaddrinfo ENOTFOUND',
    ),
    'Error: request to https://registry.example.org/pkg/-/pkg-1.0.0.tgz failed, reason: getaddrinfo ENOTFOUND',
  );
  assert.equal(cleanMessage('see https://example.com/docs/errors#E42.'), 'see https://example.com/docs/errors#E42.');
  assert.equal(cleanMessage('GET http://api.internal:8080/v1 failed'), 'GET http://api.internal:8080/v1 failed');
  assert.equal(cleanMessage('connect ECONNREFUSED http://127.0.0.1:8080/api'), 'connect ECONNREFUSED');
  assert.equal(
    cleanMessage('fetch failed at http://localhost:3000/health, see file:///home/u/app/x.js:3:4'),
    'fetch failed at, see x.js',
  );
});

// A chained Python traceback cut to 400 characters lost its last, most telling line.
const SP = '/home/dev/app/.venv/lib/python3.12/site-packages';
const CHAINED = `Traceback (most recent call last):
  File "${SP}/urllib3/connection.py", line 198, in _new_conn
    sock = connection.create_connection(
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "${SP}/urllib3/util/connection.py", line 85, in create_connection
    raise err
  File "${SP}/urllib3/util/connection.py", line 73, in create_connection
    sock.connect(sa)
ConnectionRefusedError: [Errno 111] Connection refused

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "${SP}/urllib3/connectionpool.py", line 793, in urlopen
    response = self._make_request(
               ^^^^^^^^^^^^^^^^^^^
  File "${SP}/urllib3/connection.py", line 213, in _new_conn
    raise NewConnectionError(
urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPConnection object at 0x7f3b2c1d9e50>: Failed to establish a new connection: [Errno 111] Connection refused

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "${SP}/requests/adapters.py", line 486, in send
    resp = conn.urlopen(
           ^^^^^^^^^^^^^
  File "${SP}/urllib3/util/retry.py", line 515, in increment
    raise MaxRetryError(_pool, url, reason) from reason  # type: ignore[arg-type]
    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='api.internal.example', port=8000): Max retries exceeded with url: /api/items?page=2 (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3b2c1d9e50>: Failed to establish a new connection: [Errno 111] Connection refused'))

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "/home/dev/app/main.py", line 12, in <module>
    r = requests.get("http://api.internal.example:8000/api/items?page=2", timeout=5)
        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "${SP}/requests/adapters.py", line 519, in send
    raise ConnectionError(e, request=request)
requests.exceptions.ConnectionError: HTTPConnectionPool(host='api.internal.example', port=8000): Max retries exceeded with url: /api/items?page=2 (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f3b2c1d9e50>: Failed to establish a new connection: [Errno 111] Connection refused'))
`;

test('a chained Python traceback too long for one query: the final exception comes first, then the chain back to the first cause', () => {
  const q = cleanMessage(CHAINED);
  assert.ok(q.length <= 400, `${q.length}`);
  assert.ok(
    q.startsWith(
      "requests.exceptions.ConnectionError: HTTPConnectionPool(host='api.internal.example', port=8000): Max retries exceeded",
    ),
    q,
  );
  // The chain's boilerplate and the frames are noise; the causes follow while room is left, most recent first.
  assert.doesNotMatch(q, /above exception|During handling|Traceback|site-packages|line \d+|\^\^/);
  const next = q.indexOf('urllib3.exceptions.MaxRetryError');
  assert.ok(next > 0, `the exception before it follows: ${q}`);
  assert.ok(
    !q.includes('ConnectionRefusedError') || q.indexOf('ConnectionRefusedError') > next,
    'the first cause comes last, if at all',
  );
});

test('Windows line endings and terminal colours change nothing in that order', () => {
  const q = cleanMessage(`\u001b[31m${CHAINED.replace(/\n/g, '\r\n')}\u001b[0m`);
  assert.ok(q.startsWith('requests.exceptions.ConnectionError: '), q);
});

test('a long single traceback after other output: its exception comes before that output', () => {
  const before = Array.from(
    { length: 12 },
    (_, i) => `INFO worker-${i} started polling queue jobs-default with prefetch 8 and visibility timeout`,
  ).join('\n');
  const text = `${before}\nTraceback (most recent call last):\n  File "/srv/app/worker.py", line 40, in run\n    job.execute()\nkeel_schema.errors.ValidationError: field "retries" must be at most 10\n`;
  const q = cleanMessage(text);
  assert.ok(q.startsWith('keel_schema.errors.ValidationError: field "retries" must be at most 10 INFO worker-0'), q);
});

test('a chained traceback that fits keeps its order, without the chain lines', () => {
  const short =
    'Traceback (most recent call last):\n  File "/a/x.py", line 3, in f\n    g()\nKeyError: \'id\'\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File "/a/x.py", line 9, in <module>\n    f()\nLookupFailed: no user record';
  assert.equal(cleanMessage(short), "KeyError: 'id' LookupFailed: no user record");
});
