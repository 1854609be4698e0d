import { scanForms } from '@/lib/audit/scan-forms';

/**
 * The audit's form scanner (docs/audit.md): injected by the side panel into every frame of the audited tab with
 * scripting.executeScript, in the extension's isolated world, only when the person audits the page. It reads the
 * forms' tool attributes and labels, changes nothing, and its return value (scanForms') goes back to the panel,
 * which reads it as untrusted (readFormScan).
 */
export default defineUnlistedScript(() => scanForms(document));
