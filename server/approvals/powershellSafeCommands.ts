// The PowerShell commands the `untrusted` policy runs without asking, on a plain PowerShell line
// (server/exec/powershellLine.ts): cmdlets that only read, and the default aliases PowerShell starts
// with for them (the shell runs with -NoProfile, so no profile adds or changes one). Each takes only
// the parameters listed: PowerShell accepts any unambiguous prefix of a parameter's name and also
// its aliases, so a name is let through only when it is a prefix of a listed one and not one of the
// common parameters' aliases that assign variables (-ov, -ev, -pv…). Writers (Out-File, Set-Content,
// Tee-Object, Add-Content), runners (Invoke-*, iex, Start-Process, ForEach-Object, Where-Object with
// its script blocks) and anything unknown always ask.

/** A reader's parameters, lower case; a listed `-Wait`-like parameter that blocks or writes is left out. */
const PATHS = ['path', 'literalpath', 'filter', 'include', 'exclude', 'force'];
const PROPERTY = ['property'];

const CMDLETS: Record<string, string[]> = {
  'get-childitem': [
    ...PATHS,
    'recurse',
    'depth',
    'name',
    'directory',
    'file',
    'hidden',
    'readonly',
    'system',
    'attributes',
  ],
  'get-content': [
    ...PATHS,
    'totalcount',
    'head',
    'first',
    'tail',
    'last',
    'readcount',
    'raw',
    'encoding',
    'delimiter',
    'stream',
  ],
  'select-string': [
    ...PATHS,
    'pattern',
    'simplematch',
    'casesensitive',
    'context',
    'notmatch',
    'allmatches',
    'list',
    'quiet',
    'encoding',
    'raw',
    'noemphasis',
  ],
  'get-item': PATHS,
  'test-path': [...PATHS, 'pathtype', 'isvalid'],
  'resolve-path': [...PATHS, 'relative'],
  'split-path': [
    'path',
    'literalpath',
    'parent',
    'leaf',
    'leafbase',
    'extension',
    'qualifier',
    'noqualifier',
    'isabsolute',
  ],
  'join-path': ['path', 'childpath', 'additionalchildpath'],
  'get-location': [],
  'write-output': ['noenumerate'],
  'measure-object': [
    ...PROPERTY,
    'sum',
    'average',
    'maximum',
    'minimum',
    'line',
    'word',
    'character',
    'ignorewhitespace',
  ],
  'select-object': [
    ...PROPERTY,
    'first',
    'last',
    'skip',
    'skiplast',
    'unique',
    'index',
    'expandproperty',
    'excludeproperty',
  ],
  'sort-object': [...PROPERTY, 'descending', 'unique', 'top', 'bottom', 'casesensitive', 'stable'],
  'format-table': [...PROPERTY, 'autosize', 'wrap', 'hidetableheaders'],
  'format-list': PROPERTY,
  'format-wide': [...PROPERTY, 'autosize', 'column'],
};

/** PowerShell's built-in aliases for the cmdlets above (Windows PowerShell 5.1 and PowerShell 7). */
const ALIASES: Record<string, string> = {
  ls: 'get-childitem',
  dir: 'get-childitem',
  gci: 'get-childitem',
  cat: 'get-content',
  type: 'get-content',
  gc: 'get-content',
  sls: 'select-string',
  gi: 'get-item',
  rvpa: 'resolve-path',
  pwd: 'get-location',
  gl: 'get-location',
  echo: 'write-output',
  write: 'write-output',
  measure: 'measure-object',
  select: 'select-object',
  sort: 'sort-object',
  ft: 'format-table',
  fl: 'format-list',
  fw: 'format-wide',
};

// The common parameters' aliases that assign a variable or change how output is buffered.
const VARIABLE_ALIASES = new Set(['ov', 'ev', 'wv', 'iv', 'pv', 'ob']);

/** The cmdlet a command name stands for (any case), if it is on the list. */
export function powershellReader(name: string): string | null {
  const lower = name.toLowerCase();
  const cmdlet = Object.hasOwn(ALIASES, lower) ? ALIASES[lower]! : lower;
  return Object.hasOwn(CMDLETS, cmdlet) ? cmdlet : null;
}

/**
 * Whether an argument may reach the network or another provider: a UNC path (`\\host\share`, also
 * `//host/share`: opening one sends the user's Windows credentials to that host) or a
 * provider-qualified one (`FileSystem::…`).
 */
export function reachesOut(arg: string): boolean {
  return /^[\\/]{2}/.test(arg) || arg.includes('::');
}

/** A command of a plain PowerShell line that only reads (git is checked by the bash rules). */
export function isSafePowerShellCommand(words: readonly string[]): boolean {
  const [name = '', ...args] = words;
  const cmdlet = powershellReader(name);
  if (!cmdlet || args.some(reachesOut)) return false;
  const allowed = CMDLETS[cmdlet]!;
  return args.every((arg) => {
    // Only `-Name`: a bare `-` or `--` (end of parameters) is read as an argument, a literal.
    const match = /^-([A-Za-z][\w-]*)$/.exec(arg);
    if (!match) return !arg.startsWith('-') || arg === '--';
    const given = match[1]!.toLowerCase();
    return !VARIABLE_ALIASES.has(given) && allowed.some((parameter) => parameter.startsWith(given));
  });
}
