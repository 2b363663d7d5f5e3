// Code generation driver: builds the IR once, asks every requested target what it cannot express
// (all problems of all targets are reported together and nothing is produced), then emits every
// target's files and a manifest (files with sha256, quantisation errors, tool versions).
// The output is a pure function of config + device: no timestamps, stable key order.
import { createHash } from 'node:crypto';
import { InputError, type Problem } from '../host/errors/errors.js';
import { splitList } from '../host/cli/lists.js';
import { computeHeadroom } from '../host/analysis/headroom.js';
import type { Device } from './device.js';
import type { DcbConfig } from '../host/config/index.js';
import { buildIr, type HeadroomFn, type Ir, type Quantisation } from './ir.js';
import type { CodegenTarget, EmitOptions } from './target.js';
import { sonicTarget } from './sonic.js';
import { linuxTarget } from './linux.js';
import { cHeaderTarget } from './c-header.js';
import { p4Target } from './p4.js';
import { lldpTarget } from './lldp.js';
import { dpdkTarget } from './dpdk.js';
import { svTarget } from './sv.js';

export const TARGETS: CodegenTarget[] = [sonicTarget, p4Target, linuxTarget, cHeaderTarget, lldpTarget, dpdkTarget, svTarget];
export const TARGET_NAMES = (): string[] => TARGETS.map((t) => t.name);

/** Headroom per lossless PG from host/analysis/headroom.ts (the model the simulator uses too). */
export const headroomFromModel: HeadroomFn = (a) => computeHeadroom({ speedBps: a.speedBps, cableM: a.cableM, mtu: a.mtu, profile: a.profile }).headroom_bytes;

export interface GenerateOptions {
  /** Default: headroomFromModel. */
  headroom?: HeadroomFn;
  /** Extra manifest entries (tool versions etc.), merged in as given. */
  versions?: Record<string, string>;
  /** P4Runtime device_id of p4/write_request (BMv2 --device-id); default 0. */
  deviceId?: number;
  /** dpdk: largest accepted rte_sched WRR share error in pp (default 1) and the APIs to emit for. */
  maxShareErrorPp?: number;
  dpdkApi?: ('sched' | 'tm')[];
}

export interface Generated {
  ir: Ir;
  /** `<target>/<file>` and `manifest.json` -> contents. */
  files: Map<string, string | Uint8Array>;
  manifest: Manifest;
  /** What the targets warn about (`target: path: rule`); generation went ahead. */
  warnings: Problem[];
}

export interface Manifest {
  generator: string;
  /** sha256 of the config and device as given (canonical JSON), so a manifest names its inputs. */
  inputs: { config_sha256: string; device: string; device_sha256: string };
  targets: string[];
  files: { path: string; bytes: number; sha256: string }[];
  quantisation: Quantisation[];
  omitted: { path: string; reason: string }[];
  /** Targets `--target all` left out because they cannot hold the config, each with its reasons (absent when none). */
  skipped?: { target: string; reasons: string[] }[];
  versions: Record<string, string>;
}

/** The target a `target: path` problem of a target's check belongs to. */
const targetOf = (p: Problem) => p.path.split(': ')[0];

/** Target names as given: repeated and/or comma lists (`--target sonic,linux --target p4`). */
export function splitTargetNames(names: string[]): string[] {
  // Shell completion parses the line being typed, whose last word may still be empty: no refusal then.
  if (process.argv.includes('--get-yargs-completions')) return names.flatMap((n) => String(n).split(',')).filter((n) => n.trim() !== '');
  return splitList(names, '--target');
}

export function resolveTargets(names: string[]): CodegenTarget[] {
  const given = splitTargetNames(names);
  const wanted = given.includes('all') ? TARGET_NAMES() : given;
  const out: CodegenTarget[] = [];
  const unknown: Problem[] = [];
  for (const n of wanted) {
    const t = TARGETS.find((x) => x.name === n);
    if (t) {
      if (!out.includes(t)) out.push(t);
    } else unknown.push({ path: 'target', rule: `unknown target "${n}"; one of ${[...TARGET_NAMES(), 'all'].join(', ')}` });
  }
  if (unknown.length) throw new InputError(unknown);
  return out;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * What the requested targets cannot express (`target: path: rule` problems, empty when all can), the
 * check `generate` runs before emitting; `dcbkit validate --target` runs it alone.
 */
export function refusals(
  config: DcbConfig, device: Device, targetNames: string[], opts: Pick<GenerateOptions, 'headroom' | 'deviceId' | 'maxShareErrorPp' | 'dpdkApi'> = {},
): { ir: Ir; targets: CodegenTarget[]; emitOpts: EmitOptions; problems: Problem[] } {
  const targets = resolveTargets(targetNames);
  const ir = buildIr(config, device, { headroom: opts.headroom ?? headroomFromModel });
  const emitOpts: EmitOptions = { deviceId: opts.deviceId, maxShareErrorPp: opts.maxShareErrorPp, dpdkApi: opts.dpdkApi };
  return { ir, targets, emitOpts, problems: targets.flatMap((t) => t.check(ir, emitOpts)) };
}

/**
 * Generates every requested target (from parseConfig's normalised config) or throws one InputError
 * listing all `target: path: rule` problems. A target that `all` brought in, not named itself, and
 * that cannot hold the config is left out instead, named in the manifest's `skipped` with its reasons:
 * `--target all` means every target that can, and a named target still refuses.
 */
export function generate(config: DcbConfig, device: Device, targetNames: string[], opts: GenerateOptions = {}): Generated {
  const { ir, targets: requested, emitOpts, problems } = refusals(config, device, targetNames, opts);
  const given = splitTargetNames(targetNames);
  const leaveOutable = (name: string) => given.includes('all') && !given.includes(name);
  const fatal = problems.filter((p) => !leaveOutable(targetOf(p)));
  if (fatal.length) throw new InputError(fatal);
  const skipped = requested
    .filter((t) => problems.some((p) => targetOf(p) === t.name))
    .map((t) => ({ target: t.name, reasons: problems.filter((p) => targetOf(p) === t.name).map((p) => `${p.path.slice(t.name.length + 2) || 'config'}: ${p.rule}`) }));
  const targets = requested.filter((t) => !skipped.some((s) => s.target === t.name));
  if (targets.length === 0) throw new InputError(problems);
  const files = new Map<string, string | Uint8Array>();
  const quantisation: Quantisation[] = [...ir.quantisation];
  const warnings: Problem[] = [];
  for (const t of targets) {
    const out = t.emit(ir, emitOpts);
    for (const [name, data] of Object.entries(out.files)) files.set(`${t.name}/${name}`, data);
    quantisation.push(...out.quantisation);
    warnings.push(...(out.warnings ?? []));
  }
  const manifest: Manifest = {
    generator: 'dcbkit codegen',
    inputs: { config_sha256: sha256(JSON.stringify(config)), device: device.name, device_sha256: sha256(JSON.stringify(device)) },
    targets: targets.map((t) => t.name),
    files: [...files].map(([path, data]) => ({ path, bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.length, sha256: sha256(data) })),
    quantisation,
    omitted: ir.omitted,
    ...(skipped.length ? { skipped } : {}),
    versions: opts.versions ?? {},
  };
  files.set('manifest.json', JSON.stringify(manifest, null, 2) + '\n');
  return { ir, files, manifest, warnings };
}
