// `npm run consisid -- forward|export|generate|plan ...`
import { exportCommand } from './cli/export-command.ts';
import { forwardCommand } from './cli/forward-command.ts';
import { generateCommand } from './cli/generate-command.ts';
import { planCommand } from './cli/plan-command.ts';
import { HelpRequested, UsageError } from './cli/flags.ts';

const USAGE = `usage:
  consisid forward --model <dir | repo id> --inputs <inputs.safetensors> --out <out.safetensors>
                   [--repeat n] [--weights float32|float16|int8|int4] [--compare float32 (or another precision than the run's)]
                   [--device cpu|wasm] [--dtype float32|float16] [--threads n]
                   [--subfolder transformer] [--revision main] [--hub-url URL] [--token T]
  consisid export  --model <dir | repo id> --out <model.onnx> [--shape batch=1,frames=13,height=60,width=90,text=226,vit=577,id-batch=1,rotary|no-rotary,timestep-cond]
                   [--weights float32|float16|int8|int4] [--dtype float32|float16] [--device cpu|wasm|webgpu (whose ops)]
                   [--external-data | --no-external-data] [--subfolder, --revision, --hub-url, --token as above]
  consisid generate --config <name | config.json> --out <new or empty dir> [--dtype float32|float16|bfloat16] [--shards n]
                   [--seed n] [--family uniform|heavy|outliers] [--inputs <inputs.safetensors> --shape <as for export>]
                   names: tiny, demo-preview-s, preview-s, consisid
  consisid plan    --model <config name | dir | repo id> [--shape <as for export>]
                   [--gpu-limits maxBufferSize=<bytes>,maxStorageBufferBindingSize=<bytes>]
                   [--subfolder, --revision, --hub-url, --token as above]; every precision, no --weights`;

export async function main(
  argv: readonly string[],
  log: (line: string) => void = (l) => console.error(l),
): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'forward') await forwardCommand(rest, log);
    else if (command === 'export') await exportCommand(rest, log);
    else if (command === 'generate') await generateCommand(rest, log);
    else if (command === 'plan') await planCommand(rest, log);
    else if (command === 'help' || command === '--help' || command === undefined) {
      log(USAGE);
      return command === undefined ? 2 : 0;
    } else throw new UsageError(`unknown command "${command}"`);
    return 0;
  } catch (e) {
    if (e instanceof HelpRequested) {
      log(USAGE);
      return 0;
    }
    log(e instanceof UsageError ? `${e.message}\n${USAGE}` : `error: ${(e as Error).message}`);
    return e instanceof UsageError ? 2 : 1;
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  process.exitCode = await main(process.argv.slice(2));
}
