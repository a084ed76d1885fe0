import { LANGUAGES } from "/work/wt-sdks/scripts/sdks/languages.ts";
const name = process.argv[2];
const lang = LANGUAGES.find((l) => l.name === name)!;
const out = await lang.generate(`/work/wt-sdks/.sdks/gen/${name}`);
for (const l of lang.warningLines(out)) if (!lang.expectedWarnings.some((w) => w.pattern.test(l))) console.log(l);
