// The registered golden-vector kernels. Add a kernel by importing its module and listing it here.
import { etsVectors } from './ets.js';
import type { VectorKernel } from './registry.js';

export const vectorKernels: VectorKernel[] = [
  etsVectors as VectorKernel,
];
