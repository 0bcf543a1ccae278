import type { Config } from '../config/schema.js';

// What each environment variable does, for /docs (in Bahasa Indonesia, like the pages); the names,
// order and defaults come from the config schema. Typed by the schema, so a variable without its
// text here does not compile.
export const SETTINGS_TEXT: Record<keyof Config, string> = {
  PORT: 'Port tempat layanan mendengarkan.',
  HOST: 'Alamat tempat layanan mendengarkan.',
  UPSTREAM_BASE_URLS: 'Origin situs sumber, dipisah koma, dicoba berurutan (situs berpindah domain dari waktu ke waktu).',
  UPSTREAM_SERIES_PATH:
    'Path halaman serial di situs (/seri/, /anime/, atau / untuk /{slug}/). Kosong: dipelajari dari halaman situs itu sendiri.',
  UPSTREAM_LIST_PATH: 'Path daftar serial dan filternya (/seri/, /anime/). Kosong: dipelajari dari formulir filter cepat situs.',
  UPSTREAM_TIMEOUT_S: 'Batas waktu satu halaman situs sumber, termasuk percobaan ulang, dalam detik.',
  SOLVER:
    'Cara melewati tantangan anti-bot: auto (Chromium di CHROMIUM_PATH bila ada), chromium, off (tantangan dijawab 503), atau URL layanan yang kompatibel dengan FlareSolverr (mis. http://127.0.0.1:8191) dengan IP keluar yang sama dengan layanan ini.',
  CHROMIUM_PATH: 'Lokasi Chromium (paket Debian) yang dijalankan lewat playwright-core.',
  RATE_LIMIT_MAX: 'Kuota per IP untuk /catalog/*, /feeds/* dan /export/* dalam satu jendela waktu.',
  RATE_LIMIT_WINDOW_S: 'Panjang jendela kuota, dalam detik.',
  REPORT_RATE_LIMIT_MAX: 'Laporan per IP dalam jendela yang sama (kuota tersendiri).',
  CACHE_MAX_MB: 'Batas ukuran cache jawaban di memori, dalam MB.',
  CACHE_TTL_OVERRIDES:
    'Masa segar lain untuk endpoint tertentu, menggantikan tabel di bagian Cache: path seperti tertulis di halaman ini dan detik, dipisah koma, mis. /catalog/home=60,/catalog/series/{slug}=300.',
  TRUST_PROXY:
    'Pengaturan "trust proxy" Express: false, jumlah hop (1 di belakang satu reverse proxy), atau alamat proxy. "true" ditolak karena memungkinkan alamat palsu.',
  DATA_DIR: 'Folder data instance ini: laporan, salt hash IP, origin terpilih, riwayat status, jawaban baik terakhir, katalog lokal.',
  ADMIN_TOKEN: 'Token bearer (minimal 24 karakter) untuk GET /admin/reports. Kosong: /admin/* tidak ada.',
  REDIS_URL:
    'Redis bersama untuk beberapa instance (redis:// atau rediss://): kuota, cache, kunci pengambilan, izin tantangan, origin terpilih. Kosong: semuanya di instance ini.',
  PUBLIC_URL:
    'Origin publik layanan (mis. https://api.example): tautan di halaman, feed, ekspor dan /openapi.json memakainya, bukan header Host.',
  STALE_WHILE_REVALIDATE_S:
    'Berapa lama setelah masa segarnya habis jawaban masih dikirim langsung (X-Cache: STALE) sementara satu pembaruan berjalan, dalam detik.',
  STALE_IF_ERROR_S:
    'Berapa lama jawaban baik terakhir disimpan sejak diambil, untuk dikirim saat situs sumber gagal (X-Cache: STALE dengan meta.stale), dalam detik.',
  ANSWER_STORE_MAX_MB: 'Batas ukuran simpanan jawaban baik terakhir di disk, dalam MB (yang paling lama tidak dipakai dibuang lebih dulu).',
  CRAWL_ENABLED: 'Perayap katalog di balik /export/* dan pencarian source=catalog: true atau false.',
  CRAWL_INTERVAL_S: 'Jeda terkecil antara dua permintaan perayap ke situs sumber, dalam detik.',
  LOG_LEVEL: 'Level log pino: fatal, error, warn, info, debug, trace, atau silent.',
};
