// Loaded by index.html before the app's modules. zod 4 probes `new Function` to compile fast
// object parsers when its schemas are created; under the app's CSP (no 'unsafe-eval') the probe
// is blocked and reported as a CSP violation on every page. zod reads this global config before
// any schema exists, so parsing stays jitless and nothing is reported. (A classic script, because
// module code runs only after every chunk it imports, zod's included.)
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
