package dmaapi

import "fmt"

// bounce takes slots for [va, va+n) (swiotlb_tbl_map_single): the first
// run of free slots from the search point, wrapping once; an empty pool
// starts again at slot 0. It declares the slot as standing in for the
// buffer (soc.Shadow) and returns the mapping.
func (d *Device) bounce(va, n uint64, dir Dir) (Mapping, error) {
	k := int((n + SlotBytes - 1) / SlotBytes)
	total := len(d.used)
	if k == 0 || k > total {
		return Mapping{}, fmt.Errorf("swiotlb: mapping of %d bytes does not fit the %d-byte pool", n, d.pool.Size)
	}
	if d.inUse == 0 {
		d.next = 0
	}
	found := -1
	for tried, i := 0, d.next; tried < total; {
		if i+k > total {
			tried += total - i
			i = 0
			continue
		}
		run := 0
		for run < k && !d.used[i+run] {
			run++
		}
		if run == k {
			found = i
			break
		}
		tried += run + 1
		i += run + 1
	}
	if found < 0 {
		return Mapping{}, fmt.Errorf("swiotlb: pool full (%d of %d slots in use) mapping %d bytes", d.inUse, total, n)
	}
	for j := found; j < found+k; j++ {
		d.used[j] = true
	}
	d.inUse += k
	d.next = (found + k) % total
	mp := Mapping{VA: va, Len: n, Dir: dir, Dev: d.pool.VA + uint64(found)*SlotBytes, slot: found}
	if err := d.shadow(mp); err != nil {
		d.release(mp)
		return Mapping{}, err
	}
	return mp, nil
}

// shadow tells the machine which buffer bytes each contiguous piece of the
// slot stands for.
func (d *Device) shadow(mp Mapping) error {
	sp := d.m.Space()
	for off := uint64(0); off < mp.Len; {
		st, err := sp.Translate(mp.Dev+off, false)
		if err != nil {
			return err
		}
		bt, err := sp.Translate(mp.VA+off, false)
		if err != nil {
			return err
		}
		n := min(mp.Len-off, st.Contig, bt.Contig)
		if err := d.m.Shadow(st.PA, bt.PA, n); err != nil {
			return err
		}
		off += n
	}
	return nil
}

// release frees mp's slots (swiotlb_tbl_unmap_single's release) and ends
// the shadow.
func (d *Device) release(mp Mapping) {
	d.iommuUnmap(mp)
	if mp.slot < 0 {
		return
	}
	sp := d.m.Space()
	for off := uint64(0); off < mp.Len; {
		st, err := sp.Translate(mp.Dev+off, false)
		if err != nil {
			break
		}
		n := min(mp.Len-off, st.Contig)
		d.m.Unshadow(st.PA, n)
		off += n
	}
	k := int((mp.Len + SlotBytes - 1) / SlotBytes)
	for j := mp.slot; j < mp.slot+k && j < len(d.used); j++ {
		if d.used[j] {
			d.used[j] = false
			d.inUse--
		}
	}
}
