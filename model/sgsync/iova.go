package sgsync

import "github.com/dmaviz/dmaviz/model/mem"

// recordIOVA records, once per run, the IOVA ranges the IOMMU path gave
// the list's entries, for the page-mapping view (path=iommu only).
func (r *run) recordIOVA() error {
	sp := r.api.IOSpace()
	if r.view == nil || sp == nil || r.view.iovaDone {
		return nil
	}
	r.view.iovaDone = true
	for _, e := range r.sg.Entries {
		base := e.IOVA &^ (mem.PageSize - 1)
		end := (e.IOVA + e.Len + mem.PageSize - 1) &^ (mem.PageSize - 1)
		if err := r.view.rec.MapIOVA("iova", sp, base, end-base); err != nil {
			return err
		}
	}
	return nil
}
