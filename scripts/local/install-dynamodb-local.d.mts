export const PACKAGE: string;
export const INTEGRITY: string;
export const INSTALL_DIR: string;
export function isInstalled(): boolean;
export function install(options?: { quiet?: boolean }): string;
