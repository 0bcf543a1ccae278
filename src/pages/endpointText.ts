// The pages speak Bahasa Indonesia; the endpoint table's summaries are the JSON API's English.
// A unit test checks that every endpoint of the table has its text here.
const TEXT: Record<string, { summary: string; description: string }> = {
  '/catalog/home': {
    summary: 'Beranda: slider, populer hari ini, rilis terbaru, dan rekomendasi',
    description:
      'Halaman beranda situs sumber. Halaman 2 dan seterusnya berisi rilis terbaru berikutnya; slider, populer hari ini, dan rekomendasi sama di setiap halaman.',
  },
  '/catalog/search': {
    summary: 'Cari serial berdasarkan judul',
    description:
      'Hasil pencarian situs sumber, 10 per halaman. Kata kunci dicari dalam huruf kecil dengan spasi tunggal, dan dikembalikan begitu di data.query. Pencarian tanpa hasil tetap sukses, dengan results: [].',
  },
  '/catalog/genres': {
    summary: 'Semua genre',
    description: 'Daftar genre dari sidebar situs sumber (dari kotak centang filter cepat bila widget itu tidak ada).',
  },
  '/catalog/ongoing-series': {
    summary: 'Serial yang sedang tayang, yang terakhir diperbarui lebih dulu',
    description: 'Daftar ongoing situs sumber, 20 serial per halaman.',
  },
  '/catalog/popular-series': {
    summary: 'Serial terpopuler, plus peringkat mingguan, bulanan, dan sepanjang masa',
    description: 'Daftar serial situs sumber menurut popularitas (20 per halaman), dan peringkat dari widget Popular Series di sidebar.',
  },
  '/catalog/new-movie': {
    summary: 'Film terbaru, plus daftar "NEW MOVIE" di sidebar',
    description:
      'Daftar serial situs sumber yang berupa film, diurutkan dari yang terbaru (20 per halaman), dan entri NEW MOVIE di sidebar beserta tanggal rilisnya.',
  },
};

export function endpointText(path: string): { summary: string; description: string } {
  const text = TEXT[path];
  if (!text) throw new Error(`No Indonesian text for ${path} in src/pages/endpointText.ts`);
  return text;
}
