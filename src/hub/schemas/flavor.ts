import { z } from 'zod';

export const FLAVORS = [
  'cpu-basic',
  'cpu-upgrade',
  'cpu-performance',
  'cpu-xl',
  'sprx8',
  'zero-a10g',
  't4-small',
  't4-medium',
  'l4x1',
  'l4x4',
  'l40sx1',
  'l40sx4',
  'l40sx8',
  'a10g-small',
  'a10g-large',
  'a10g-largex2',
  'a10g-largex4',
  'a100-large',
  'a100x4',
  'a100x8',
  'h200',
  'h200x2',
  'h200x4',
  'h200x8',
  'rtx-pro-6000',
  'rtx-pro-6000x2',
  'rtx-pro-6000x4',
  'rtx-pro-6000x8',
  'inf2x6',
] as const;
export const Flavor = z.enum(FLAVORS);
export type Flavor = z.infer<typeof Flavor>;

export const Arch = z.enum(['amd64', 'arm64']);
export type Arch = z.infer<typeof Arch>;
