// express-rate-limit's own store interface is the quota's: the limiter takes either implementation as it is.
export type { Store as QuotaStore } from 'express-rate-limit';
