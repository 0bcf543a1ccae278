// Why the upstream failed, in plain Indonesian, per contract error code: what the status page says
// of an incident instead of the code.
const CAUSES: Record<string, string> = {
  UPSTREAM_BLOCKED: 'situs sumber meminta verifikasi anti-bot',
  UPSTREAM_TIMEOUT: 'situs sumber tidak menjawab',
  UPSTREAM_UNAVAILABLE: 'situs sumber terus gagal, jadi permintaan ditahan sementara',
  UPSTREAM_ERROR: 'situs sumber menjawab dengan error atau tidak bisa dihubungi',
  UPSTREAM_LAYOUT_CHANGED: 'tampilan situs sumber berubah, datanya tidak terbaca',
  NOT_FOUND: 'halaman situs sumber tidak ditemukan',
  SERVICE_BUSY: 'antrean layanan kami sedang penuh',
  INTERNAL_ERROR: 'kesalahan di layanan kami',
};

export const causeOf = (code: string): string => CAUSES[code] ?? `gangguan lain (${code})`;
