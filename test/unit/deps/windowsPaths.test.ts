// The dependency resolver, packageOfPath, frame mapping and the noise removal read Windows
// paths (drive letters, `\`, UNC shares, mixed separators, the Cargo and Go caches under %USERPROFILE% and
// %LOCALAPPDATA%, a venv's `Lib\site-packages`) on any platform: path.win32 stands in for Windows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { rootForFile } from '../../../src/deps/cache';
import { cleanMessage } from '../../../src/deps/messages';
import { framesInText, packageOfPath, packagesInText, pathOfFrame, refKey } from '../../../src/deps/packageRefs';
import { importsFromRecord } from '../../../src/deps/manifests';
import { dependencyAtPath, installLocationOfPath } from '../../../src/deps/installLocation';
import { resolveFolder } from '../../../src/deps/resolver';

const key = (p: string) => {
  const r = packageOfPath(p);
  return r ? refKey(r) : undefined;
};

test('packageOfPath: Windows install layouts name the exact package', () => {
  const cases: Array<[string, string | undefined]> = [
    ['C:\\Users\\me\\proj\\node_modules\\left-pad\\index.js', 'npm:left-pad'],
    ['C:\\Users\\me\\proj\\node_modules\\@keel\\schema\\lib\\index.js', 'npm:@keel/schema'],
    ['c:\\proj\\node_modules\\.pnpm\\fetchline@2.1.0\\node_modules\\fetchline\\dist\\x.js', 'npm:fetchline'],
    ['\\\\server\\share\\proj\\node_modules\\left-pad\\index.js', 'npm:left-pad'],
    ['//server/share/proj/node_modules/left-pad/index.js', 'npm:left-pad'],
    ['C:\\proj\\node_modules\\.bin\\tsc.cmd', undefined],
    [
      'C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde-1.0.200\\src\\lib.rs',
      'cargo:serde',
    ],
    [
      'C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde_json-1.0.108\\src\\de.rs',
      'cargo:serde-json',
    ],
    ['C:\\Users\\me\\go\\pkg\\mod\\github.com\\spf13\\cobra@v1.8.0\\command.go', 'go:github.com/spf13/cobra'],
    ['C:\\Users\\me\\go\\pkg\\mod\\github.com\\!burnt!sushi\\toml@v1.3.2\\decode.go', 'go:github.com/BurntSushi/toml'],
    // GOMODCACHE set under %LOCALAPPDATA%, with and without a pkg\mod of its own.
    [
      'C:\\Users\\me\\AppData\\Local\\go\\pkg\\mod\\github.com\\spf13\\cobra@v1.8.0\\command.go',
      'go:github.com/spf13/cobra',
    ],
    [
      'C:\\Users\\me\\AppData\\Local\\gomodcache\\github.com\\spf13\\cobra@v1.8.0\\command.go',
      'go:github.com/spf13/cobra',
    ],
    ['C:\\Users\\me\\AppData\\Local\\gomodcache\\golang.org\\x\\net@v0.20.0\\http2\\frame.go', 'go:golang.org/x/net'],
    ['C:\\Users\\me\\AppData\\Local\\gomodcache\\gopkg.in\\yaml.v3@v3.0.1\\decode.go', 'go:gopkg.in/yaml.v3'],
    [
      'C:\\Users\\me\\AppData\\Local\\gomodcache\\go.etcd.io\\etcd\\client\\v3@v3.5.12\\client.go',
      'go:go.etcd.io/etcd/client/v3',
    ],
    ['C:\\proj\\.venv\\Lib\\site-packages\\requests\\api.py', 'pypi:requests'],
    ['C:\\Program Files\\Python312\\Lib\\site-packages\\yaml\\__init__.py', 'pypi:yaml'],
    ['C:\\proj\\.venv\\Lib\\site-packages\\requests-2.31.0.dist-info\\METADATA', undefined],
    // Mixed separators, as tools print them on Windows.
    ['C:/Users/me\\proj/node_modules\\left-pad/index.js', 'npm:left-pad'],
    ['C:\\Users\\me/go/pkg\\mod/github.com\\spf13/cobra@v1.8.0\\command.go', 'go:github.com/spf13/cobra'],
    ['C:/proj/.venv\\Lib/site-packages\\requests/api.py', 'pypi:requests'],
    ['C:\\Users\\me\\proj\\src\\main.ts', undefined],
    ['C:\\Users\\Me\\Projects\\app@v2\\main.go', undefined],
  ];
  for (const [p, want] of cases) assert.equal(key(p), want, p);
});

test('pathOfFrame: file URLs become paths (drive letters, UNC shares, escapes); paths stay', () => {
  assert.equal(pathOfFrame('file:///C:/proj/node_modules/left-pad/index.js'), 'C:/proj/node_modules/left-pad/index.js');
  assert.equal(pathOfFrame('file:///C:/Users/Ana%20Lima/proj/x.mjs'), 'C:/Users/Ana Lima/proj/x.mjs');
  assert.equal(pathOfFrame('file://server/share/proj/x.js'), '//server/share/proj/x.js');
  assert.equal(pathOfFrame('file:///srv/app/src/main.mjs'), '/srv/app/src/main.mjs');
  assert.equal(pathOfFrame('C:\\proj\\x.js'), 'C:\\proj\\x.js');
});

test('frame mapping: stack-trace lines as Windows prints them, the exact package and path of each', () => {
  const frames = (text: string) => framesInText(text).map((f) => [refKey(f.ref), f.path]);
  assert.deepEqual(
    frames(
      'TypeError: x is not a function\n    at f (C:\\proj\\node_modules\\x\\y.js:1:2)\n    at Object.<anonymous> (C:\\proj\\src\\main.js:3:4)',
    ),
    [['npm:x', 'C:\\proj\\node_modules\\x\\y.js']],
  );
  assert.deepEqual(frames('    at C:\\proj\\node_modules\\left-pad\\index.js:10:5'), [
    ['npm:left-pad', 'C:\\proj\\node_modules\\left-pad\\index.js'],
  ]);
  // A user folder with a space: the frame's own brackets say where the path ends.
  assert.deepEqual(
    frames('    at request (C:\\Users\\Ana Lima\\proj\\node_modules\\fetchline\\dist\\client.js:211:31)'),
    [['npm:fetchline', 'C:\\Users\\Ana Lima\\proj\\node_modules\\fetchline\\dist\\client.js']],
  );
  assert.deepEqual(
    frames('    at async main (file:///C:/Users/Ana%20Lima/proj/node_modules/fetchline/dist/client.mjs:8:3)'),
    [['npm:fetchline', 'C:/Users/Ana Lima/proj/node_modules/fetchline/dist/client.mjs']],
  );
  assert.deepEqual(frames('    at f (\\\\server\\share\\proj\\node_modules\\@keel\\schema\\lib\\index.js:4:1)'), [
    ['npm:@keel/schema', '\\\\server\\share\\proj\\node_modules\\@keel\\schema\\lib\\index.js'],
  ]);
  const py = [
    'Traceback (most recent call last):',
    '  File "C:\\proj\\main.py", line 3, in <module>',
    '    requests.get(url)',
    '  File "C:\\proj\\.venv\\Lib\\site-packages\\requests\\api.py", line 59, in get',
    '    return request("get", url, params=params, **kwargs)',
    '  File "C:\\Users\\Ana Lima\\proj\\.venv\\Lib\\site-packages\\urllib3\\connectionpool.py", line 793, in urlopen',
    'urllib3.exceptions.MaxRetryError: boom',
  ].join('\r\n');
  assert.deepEqual(
    frames(py),
    [
      ['pypi:urllib3', 'C:\\Users\\Ana Lima\\proj\\.venv\\Lib\\site-packages\\urllib3\\connectionpool.py'],
      ['pypi:requests', 'C:\\proj\\.venv\\Lib\\site-packages\\requests\\api.py'],
    ],
    'innermost first: Python prints it last',
  );
  const go =
    'panic: runtime error: index out of range [3] with length 3\r\n\r\ngoroutine 1 [running]:\r\ngithub.com/spf13/cobra.(*Command).execute(0xc000004300)\r\n\tC:/Users/me/go/pkg/mod/github.com/spf13/cobra@v1.8.0/command.go:987 +0x1c\r\nmain.main()\r\n\tC:/proj/main.go:14 +0x25\r\nexit status 2';
  assert.deepEqual(frames(go), [
    ['go:github.com/spf13/cobra', undefined],
    ['go:github.com/spf13/cobra', 'C:/Users/me/go/pkg/mod/github.com/spf13/cobra@v1.8.0/command.go'],
  ]);
  assert.deepEqual(
    frames('\tC:/Users/Ana Lima/AppData/Local/gomodcache/github.com/spf13/cobra@v1.8.0/command.go:987 +0x1c'),
    [
      [
        'go:github.com/spf13/cobra',
        'C:/Users/Ana Lima/AppData/Local/gomodcache/github.com/spf13/cobra@v1.8.0/command.go',
      ],
    ],
  );
  const rust =
    "thread 'main' panicked at C:\\Users\\Ana Lima\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde-1.0.200\\src\\lib.rs:12:5:\r\nboom\r\nstack backtrace:\r\n   0: std::panicking::begin_panic\r\n             at C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\tokio-1.35.0\\src\\runtime\\mod.rs:88:14";
  assert.deepEqual(frames(rust), [
    [
      'cargo:serde',
      'C:\\Users\\Ana Lima\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde-1.0.200\\src\\lib.rs',
    ],
    [
      'cargo:tokio',
      'C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\tokio-1.35.0\\src\\runtime\\mod.rs',
    ],
  ]);
  assert.deepEqual(
    frames(
      '  --> C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\ratelane-0.4.2\\src\\lib.rs:88:14',
    ),
    [
      [
        'cargo:ratelane',
        'C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\ratelane-0.4.2\\src\\lib.rs',
      ],
    ],
  );
  assert.deepEqual(
    frames('    at f (C:/proj\\node_modules/x\\y.js:1:2)'),
    [['npm:x', 'C:/proj\\node_modules/x\\y.js']],
    'mixed separators',
  );
  assert.deepEqual(
    packagesInText(
      '    at f (C:\\proj\\node_modules\\x\\y.js:1:2)\n    at g (C:\\proj\\node_modules\\z\\w.js:1:2)',
    ).map(refKey),
    ['npm:x', 'npm:z'],
  );
  // Lines that only look like frames fall back to the path-like runs in them, as before.
  assert.deepEqual(
    frames('    at f (node_modules\\x\\y.js:1:2)'),
    [['npm:x', 'node_modules\\x\\y.js']],
    'a relative frame path',
  );
  assert.deepEqual(frames('  at least see C:\\proj\\node_modules\\x\\y.js:1:2'), [
    ['npm:x', 'C:\\proj\\node_modules\\x\\y.js'],
  ]);
  assert.deepEqual(frames('  File "<frozen importlib._bootstrap>", line 1027, in _find_and_load'), []);
});

test('installLocationOfPath: the manifest a Windows frame path is read from, in Windows form', () => {
  const w = path.win32;
  assert.deepEqual(
    installLocationOfPath(
      'C:\\Users\\me\\proj\\node_modules\\left-pad\\index.js',
      { ecosystem: 'npm', name: 'left-pad' },
      w,
    ),
    { ecosystem: 'npm', manifest: 'C:\\Users\\me\\proj\\node_modules\\left-pad\\package.json' },
  );
  assert.deepEqual(
    installLocationOfPath(
      'C:/proj\\node_modules/@keel\\schema/lib/index.js',
      { ecosystem: 'npm', name: '@keel/schema' },
      w,
    ),
    { ecosystem: 'npm', manifest: 'C:\\proj\\node_modules\\@keel\\schema\\package.json' },
  );
  assert.deepEqual(
    installLocationOfPath(
      '\\\\server\\share\\proj\\node_modules\\left-pad\\index.js',
      { ecosystem: 'npm', name: 'left-pad' },
      w,
    ),
    { ecosystem: 'npm', manifest: '\\\\server\\share\\proj\\node_modules\\left-pad\\package.json' },
  );
  assert.deepEqual(
    installLocationOfPath(
      'C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde-1.0.200\\src\\lib.rs',
      { ecosystem: 'cargo', name: 'serde' },
      w,
    ),
    {
      ecosystem: 'cargo',
      manifest: 'C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde-1.0.200\\Cargo.toml',
    },
  );
  assert.deepEqual(
    installLocationOfPath(
      'C:\\proj\\.venv\\Lib\\site-packages\\requests\\api.py',
      { ecosystem: 'pypi', name: 'requests' },
      w,
    ),
    { ecosystem: 'pypi', sitePackages: 'C:\\proj\\.venv\\Lib\\site-packages' },
  );
  assert.equal(
    installLocationOfPath(
      'C:\\Users\\me\\go\\pkg\\mod\\github.com\\spf13\\cobra@v1.8.0\\command.go',
      { ecosystem: 'go', name: 'github.com/spf13/cobra' },
      w,
    ),
    undefined,
    'Go reads nothing',
  );
  assert.equal(installLocationOfPath('C:\\proj\\src\\index.js', { ecosystem: 'npm', name: 'left-pad' }, w), undefined);
  // The same on POSIX, as before.
  assert.deepEqual(
    installLocationOfPath(
      '/srv/app/node_modules/fetchline/dist/client.js',
      { ecosystem: 'npm', name: 'fetchline' },
      path.posix,
    ),
    { ecosystem: 'npm', manifest: '/srv/app/node_modules/fetchline/package.json' },
  );
});

test('the resolver reads a Windows venv layout (Lib/site-packages) and frame paths with backslashes', async () => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'devindex-win-'));
  const write = (p: string, t: string) => {
    fs.mkdirSync(path.dirname(path.join(base, p)), { recursive: true });
    fs.writeFileSync(path.join(base, p), t);
  };
  write(
    'app/.venv/Lib/site-packages/requests-2.31.0.dist-info/METADATA',
    'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\nProject-URL: Source, https://github.com/psf/requests\n',
  );
  write('app/.venv/Lib/site-packages/requests-2.31.0.dist-info/top_level.txt', 'requests\n');
  write('app/.venv/Lib/site-packages/requests/api.py', '');
  write(
    'app/node_modules/left-pad/package.json',
    JSON.stringify({ name: 'left-pad', repository: 'github:left-pad/left-pad' }),
  );
  const r = await resolveFolder(path.join(base, 'app'), {
    maxDependencies: 100,
    cargoHome: path.join(base, 'no-cargo'),
  });
  assert.deepEqual(
    r.deps.map((d) => [d.ecosystem, d.name, d.slug, d.version]),
    [['pypi', 'requests', 'psf/requests', '2.31.0']],
  );
  // A frame path written with `\` (as a Windows tool prints it) still reaches the install on this disk.
  const back = (p: string) => path.join(base, p).replace(/\//g, '\\');
  assert.equal(
    (await dependencyAtPath(back('app/node_modules/left-pad/index.js'), { ecosystem: 'npm', name: 'left-pad' }))?.slug,
    'left-pad/left-pad',
  );
  assert.equal(
    (
      await dependencyAtPath(back('app/.venv/Lib/site-packages/requests/api.py'), {
        ecosystem: 'pypi',
        name: 'requests',
      })
    )?.slug,
    'psf/requests',
  );
});

test('rootForFile with Windows paths: drive letters in any case, UNC shares, a manifest at a drive root', () => {
  assert.equal(
    rootForFile('C:\\w\\a\\src\\x.ts', ['C:\\w', 'C:\\w\\a'], () => false, '\\'),
    'C:\\w\\a',
  );
  assert.equal(
    rootForFile('C:\\W\\A\\src\\x.ts', ['c:\\w', 'c:\\w\\a'], () => false, '\\'),
    'c:\\w\\a',
    'Windows paths ignore case',
  );
  assert.equal(
    rootForFile('C:\\wx\\y.ts', ['C:\\w'], () => false, '\\'),
    undefined,
    'C:\\wx is not inside C:\\w',
  );
  assert.equal(
    rootForFile('\\\\server\\share\\proj\\src\\x.ts', ['\\\\server\\share\\proj'], () => false, '\\'),
    '\\\\server\\share\\proj',
  );
  assert.equal(
    rootForFile('\\\\server\\share\\proj\\src\\x.ts', [], (d) => d === '\\\\server\\share\\proj', '\\'),
    '\\\\server\\share\\proj',
  );
  assert.equal(
    rootForFile('D:\\x.ts', [], (d) => d === path.win32.dirname('D:\\x.ts'), '\\'),
    'D:\\',
    'a drive root named as path.win32 names it',
  );
  assert.equal(
    rootForFile('/W/a/x.ts', ['/w'], () => false),
    undefined,
    'POSIX paths keep their case',
  );
});

test('noise removal drops Windows paths: drive letters, UNC shares, mixed separators', () => {
  assert.equal(
    cleanMessage("Error: ENOENT: no such file or directory, open '\\\\server\\share\\proj\\config.json'"),
    "Error: ENOENT: no such file or directory, open 'config.json'",
  );
  assert.equal(
    cleanMessage("Error: Cannot find module 'C:\\proj/node_modules\\left-pad/index.js'"),
    "Error: Cannot find module 'left-pad'",
  );
  assert.equal(
    cleanMessage("Error: Cannot find module 'C:\\Users\\Ana Lima\\proj\\node_modules\\left-pad\\index.js'"),
    "Error: Cannot find module 'left-pad'",
    'a quoted path with a space',
  );
  assert.equal(
    cleanMessage('EPERM: operation not permitted, open "C:\\Program Files\\app\\config.json"'),
    'EPERM: operation not permitted, open "config.json"',
  );
  assert.equal(
    cleanMessage(
      'error[E0599]: no method named `x` found\n   --> C:\\Users\\me\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde-1.0.200\\src\\lib.rs:12:5',
    ),
    'error[E0599]: no method named `x` found',
  );
});

test('a wheel RECORD written on Windows (backslashes, CRLF, Scripts, .pyd, a drive path) gives its import names', () => {
  const record = [
    'requests\\__init__.py,sha256=abc,494',
    'requests\\api.py,sha256=abc,6449',
    'requests-2.31.0.dist-info\\METADATA,sha256=abc,4642',
    '..\\..\\Scripts\\normalizer.exe,sha256=abc,108',
    'C:\\proj\\.venv\\Scripts\\x.exe,,',
    '_cffi_backend.cp312-win_amd64.pyd,sha256=abc,177664',
    '',
  ].join('\r\n');
  assert.deepEqual(importsFromRecord(record), ['requests', '_cffi_backend']);
});
