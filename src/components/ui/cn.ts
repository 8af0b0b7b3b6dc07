import { clsx, type ClassValue } from 'clsx';
import { twMerge } from 'tailwind-merge';

/**
 * Joins class names (strings, conditionals, arrays) and resolves Tailwind conflicts so the last
 * one wins: a caller's `px-1` replaces a component's default `px-3` instead of racing it in CSS.
 */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
