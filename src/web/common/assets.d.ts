// Stylesheets imported by the pages' modules: esbuild puts them in the page's CSS bundle.
declare module "*.css" {}
