export * from './i18n/locale';
export * from './i18n/catalogues';
export * from './money';
export * from './auth/roles';
export * from './forms/rules';
export * from './forms/masks';
export * from './profile/profile';
export * from './profile/avatar';
