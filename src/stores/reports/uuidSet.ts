/**
 * A set of UUIDs kept as 16 bytes each in an open-addressing table outside the JS heap: a million
 * report ids take 32 MB of buffer where a Set<string> would take about 100 MB of the 160 MB heap
 * the start script allows. Lookups and inserts cost the same at ten ids or a million.
 */
export class UuidSet {
  // Two words per slot (the UUID's high and low 64 bits); a slot of two zeros is empty.
  private slots = new BigUint64Array(2 * 1024);
  private count = 0;
  // The nil UUID would read as an empty slot, so it is kept apart.
  private hasNil = false;

  get size(): number {
    return this.count + (this.hasNil ? 1 : 0);
  }

  add(id: string): void {
    const [high, low] = words(id);
    if (high === 0n && low === 0n) {
      this.hasNil = true;
      return;
    }
    // Grown at half full, so that a probe stays short.
    if ((this.count + 1) * 2 > this.capacity()) this.grow();
    if (this.insert(high, low)) this.count++;
  }

  has(id: string): boolean {
    const [high, low] = words(id);
    if (high === 0n && low === 0n) return this.hasNil;
    const mask = this.capacity() - 1;
    for (let slot = start(high, low, mask); ; slot = (slot + 1) & mask) {
      const slotHigh = this.slots[2 * slot] as bigint;
      const slotLow = this.slots[2 * slot + 1] as bigint;
      if (slotHigh === 0n && slotLow === 0n) return false;
      if (slotHigh === high && slotLow === low) return true;
    }
  }

  private capacity(): number {
    return this.slots.length / 2;
  }

  /** False when the UUID was there already. */
  private insert(high: bigint, low: bigint): boolean {
    const mask = this.capacity() - 1;
    for (let slot = start(high, low, mask); ; slot = (slot + 1) & mask) {
      const slotHigh = this.slots[2 * slot] as bigint;
      const slotLow = this.slots[2 * slot + 1] as bigint;
      if (slotHigh === high && slotLow === low) return false;
      if (slotHigh === 0n && slotLow === 0n) {
        this.slots[2 * slot] = high;
        this.slots[2 * slot + 1] = low;
        return true;
      }
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new BigUint64Array(old.length * 2);
    for (let index = 0; index < old.length; index += 2) {
      const high = old[index] as bigint;
      const low = old[index + 1] as bigint;
      if (high !== 0n || low !== 0n) this.insert(high, low);
    }
  }
}

/** The UUID's 128 bits as two 64-bit words; the caller has checked the UUID's form. */
function words(id: string): [bigint, bigint] {
  const hex = id.replaceAll('-', '');
  return [BigInt(`0x${hex.slice(0, 16)}`), BigInt(`0x${hex.slice(16, 32)}`)];
}

/** Random UUIDs need no hashing: their low bits are already spread evenly. */
function start(high: bigint, low: bigint, mask: number): number {
  return Number((high ^ low) & BigInt(mask));
}
