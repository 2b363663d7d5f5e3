// Kubernetes manifests of a sharded sweep (`dcbkit sweep ... --k8s --shards N --out DIR
// --volume-claim NAME [--image I]`), written to DIR/k8s/:
//   scenario.json    the scenario document the pods read (so the volume needs nothing else)
//   sweep-job.yaml   an Indexed Job (completionMode: Indexed, completions = parallelism = N); pod i
//                    runs shard $(JOB_COMPLETION_INDEX)/N into shards/<i> with --resume, so a
//                    retried pod re-runs only what is missing
//   merge-job.yaml   one pod: sweep-merge of every shard into the sweep directory
// The claim is mounted at /data and must hold DIR as /data/<basename of DIR>. The index comes from
// JOB_COMPLETION_INDEX, which the Job controller sets in every container of an Indexed Job
// (kubernetes.io/docs/tasks/job/indexed-parallel-processing-static, stable since 1.24) and which
// Kubernetes expands in args written $(NAME). No shell runs: args are a list, and a `$(` in any
// user value is written `$$(`, Kubernetes' escape, so it is never expanded.
import { basename, posix } from 'node:path';
import { stringify } from 'yaml';
import { InputError, type Problem } from '../errors/errors.js';
import { mergeTaskArgs, SHARD_INDEX, shardTaskArgs, type TaskPlan } from './shard.js';

export const K8S_MOUNT = '/data';

export interface K8sOptions { volumeClaim: string; image: string; name: string }

export function checkK8sOptions(o: K8sOptions): void {
  const problems: Problem[] = [];
  // A claim name is a DNS-1123 subdomain.
  if (!(o.volumeClaim.length <= 253 && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(o.volumeClaim))) {
    problems.push({ path: '--volume-claim', rule: `"${o.volumeClaim}" is not a PersistentVolumeClaim name (lower-case letters, digits, - and ., starting and ending alphanumeric, at most 253)` });
  }
  if (!/^[^\s]+$/.test(o.image)) problems.push({ path: '--image', rule: `"${o.image}" is not an image reference (no spaces, not empty)` });
  if (problems.length) throw new InputError(problems);
}

/** One container argument: Kubernetes' $(VAR) expansion escaped, the shard index expanded. */
function k8sArg(arg: string): string {
  return arg.split(SHARD_INDEX).map((part) => part.replace(/\$\(/g, '$$$$(')).join('$(JOB_COMPLETION_INDEX)');
}

function job(name: string, o: K8sOptions, completions: number, args: string[], indexed: boolean): string {
  const doc = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, labels: { 'app.kubernetes.io/name': 'dcbkit-sweep' } },
    spec: {
      ...(indexed ? { completionMode: 'Indexed' } : {}),
      completions,
      parallelism: completions,
      backoffLimit: 3 * completions,
      template: {
        spec: {
          restartPolicy: 'Never',
          containers: [{
            name: indexed ? 'shard' : 'merge', image: o.image, command: ['dcbkit'], args: args.map(k8sArg),
            volumeMounts: [{ name: 'sweep', mountPath: K8S_MOUNT }],
          }],
          volumes: [{ name: 'sweep', persistentVolumeClaim: { claimName: o.volumeClaim } }],
        },
      },
    },
  };
  return stringify(doc);
}

/**
 * The files of DIR/k8s/ for the task plan `t` (its dir and scenario are replaced by their paths in
 * the pods) and the scenario document `doc`.
 */
export function k8sFiles(t: TaskPlan, doc: unknown, o: K8sOptions): Map<string, string> {
  const dir = posix.join(K8S_MOUNT, basename(t.dir));
  const inPod: TaskPlan = { ...t, dir, scenario: posix.join(dir, 'k8s', 'scenario.json') };
  return new Map([
    ['k8s/scenario.json', JSON.stringify(doc, null, 2) + '\n'],
    ['k8s/sweep-job.yaml', job(o.name, o, t.shards, shardTaskArgs(inPod), true)],
    ['k8s/merge-job.yaml', job(`${o.name}-merge`, o, 1, mergeTaskArgs(inPod), false)],
  ]);
}
