// The pages speak Bahasa Indonesia; the endpoint table's summaries are the JSON API's English.
// A unit test checks that every endpoint and feed of the tables has its text here.
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
  '/catalog/series/{slug}': {
    summary: 'Satu serial: detail, daftar episode, dan unduhan batch',
    description:
      'Halaman serial situs sumber: judul, poster dan banner, sinopsis, status, tipe, rating, network, studio, musim, negara, tanggal, genre dan tag, baris info lainnya, episode pertama dan terbaru, semua episode (terbaru lebih dulu), dan unduhan batch.',
  },
  '/catalog/episode/{slug}': {
    summary: 'Satu episode: server video, unduhan, dan navigasi',
    description:
      'Halaman episode situs sumber: setiap server video dengan URL embed-nya, unduhan per kualitas dan host, episode sebelumnya / berikutnya / semua episode, dan daftar episode serialnya. Episode terakhir serial yang sudah tamat juga ditemukan lewat URL -tamat-.',
  },
  '/catalog/completed-series': {
    summary: 'Serial yang sudah tamat',
    description: 'Daftar completed situs sumber, 20 serial per halaman.',
  },
  '/catalog/genres/{slug}': {
    summary: 'Serial dalam satu genre',
    description:
      'Halaman genre situs sumber: kartu serialnya per halaman, dan genre itu sendiri (term) dari judul halaman. Genre yang tidak dikenal menghasilkan 404.',
  },
  '/catalog/studios/{slug}': {
    summary: 'Serial dari satu studio',
    description:
      'Halaman studio situs sumber: kartu serialnya per halaman, dan studio itu sendiri (term) dari judul halaman. Studio yang tidak dikenal menghasilkan 404.',
  },
  '/catalog/networks/{slug}': {
    summary: 'Serial dari satu network',
    description:
      'Halaman network situs sumber: kartu serialnya per halaman, dan network itu sendiri (term) dari judul halaman. Network yang tidak dikenal menghasilkan 404.',
  },
  '/catalog/countries/{slug}': {
    summary: 'Serial dari satu negara',
    description:
      'Halaman negara situs sumber: kartu serialnya per halaman, dan negara itu sendiri (term) dari judul halaman. Negara yang tidak dikenal menghasilkan 404.',
  },
  '/catalog/seasons/{slug}': {
    summary: 'Serial dalam satu musim',
    description:
      'Halaman season situs sumber (tahun seperti 2025, atau summer-2022): semua serialnya dalam satu halaman, dengan kartu khusus season (studio, jumlah episode, rating, sinopsis, genre). Season yang tidak dikenal menghasilkan 404.',
  },
  '/catalog/schedule': {
    summary: 'Jadwal rilis mingguan, mulai hari Senin',
    description:
      'Halaman jadwal situs sumber: per hari, serial yang tayang, episode berikutnya (null bila situs menulis "??"), dan waktu rilisnya dari hitung mundur.',
  },
  '/catalog/az-list': {
    summary: 'Serial urut abjad, per huruf awal',
    description:
      'Daftar A–Z situs sumber, 10 serial per halaman: semua serial, atau yang berawalan satu huruf (A–Z, 0-9, atau # untuk judul yang diawali tanda). Huruf tanpa serial tetap sukses, dengan series: [].',
  },
  '/catalog/series': {
    summary: 'Serial menurut filter situs: status, tipe, urutan, genre, season, studio',
    description:
      'Daftar serial situs sumber dengan nilai form filter cepatnya, 20 per halaman. Daftar berupa slug dipisah koma, paling banyak 10. Filter tanpa hasil tetap sukses, dengan series: []; data.filters mengulang filter yang dipakai.',
  },
  '/feeds/latest': {
    summary: 'Rilis episode terbaru seluruh situs',
    description:
      'Rilis terbaru di halaman pertama beranda, yang terbaru lebih dulu. Situs sumber tidak memberi tanggal untuknya: tiap entri bertanggal saat layanan ini pertama kali melihatnya, dan tanggal itu diingat sehingga tidak pernah berubah.',
  },
  '/feeds/series/{slug}': {
    summary: '50 episode terbaru satu serial',
    description:
      'Daftar episode halaman serial, 50 yang terbaru lebih dulu, tiap entri bertanggal rilisnya (tengah malam WIB, +07:00), atau saat layanan ini pertama kali melihatnya bila halaman tidak memberi tanggal.',
  },
  '/feeds/movies': {
    summary: 'Film terbaru',
    description:
      'Daftar film, yang terbaru lebih dulu, bertanggal rilis dari widget "NEW MOVIE" bila ada, atau saat layanan ini pertama kali melihat film itu.',
  },
};

export function endpointText(path: string): { summary: string; description: string } {
  const text = TEXT[path];
  if (!text) throw new Error(`No Indonesian text for ${path} in src/pages/endpointText.ts`);
  return text;
}
