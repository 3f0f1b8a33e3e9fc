import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);
import {
  require_undici
} from "./chunk-6C5SF6VE.js";
import "./chunk-V4RWK56N.js";
export default require_undici();
