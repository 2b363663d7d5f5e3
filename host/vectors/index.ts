// The registered golden-vector kernels. Add a kernel by importing its module and listing it here.
import { etsVectors } from './ets.js';
import { pfcVectors } from './pfc.js';
import { creditVectors } from './credit.js';
import { qcnCpKernel } from './qcn-cp.js';
import { qcnRpKernel } from './qcn-rp.js';
import type { VectorKernel } from './registry.js';

export const vectorKernels: VectorKernel[] = [
  etsVectors as VectorKernel,
  pfcVectors as VectorKernel,
  creditVectors as VectorKernel,
  qcnRpKernel as VectorKernel,
  qcnCpKernel as VectorKernel,
];
