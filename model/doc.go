// Package model is the root of dmaviz's pure-Go simulation: it holds no
// code, only this description and the import-guard test that keeps every
// package below it on the standard library.
//
// Packages:
//   - sim: typed time, clock domains, the (time, sequence) event queue and
//     the run's seeded RNG;
//   - mem: page frames (buddy allocator with seeded fragmentation), line
//     data versions (who wrote each line last), mappings with attributes
//     and the Translator interface;
//   - cache: the shared set-associative array and replacement tracker,
//     write-back caches, the stride prefetcher;
//   - mmu: Arm64 page tables in buddy frames, the walker with its walk
//     caches, the kernel's linear map, vmap and IOVA spaces, rb_alloc_aux;
//   - soc: the transaction-level machine (core, caches, DRAM, NC path,
//     cache maintenance and DSB, DMA masters, PMU counters, recording);
//   - platform: named presets with sourced or fitted parameters;
//   - scenario: the contract between scenarios and everything that shows
//     them.
package model
