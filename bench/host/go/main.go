// SPDX-License-Identifier: MIT
// exterr.Parse() per parse, like parse_bench.c's time mode.
// usage: gobench ROUNDS ITERS FILE...
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"

	"exterr.dev/go/exterr"
)

func main() {
	rounds, _ := strconv.Atoi(os.Args[1])
	iters, _ := strconv.Atoi(os.Args[2])
	for _, path := range os.Args[3:] {
		data, err := os.ReadFile(path)
		if err != nil {
			panic(err)
		}
		if _, err := exterr.Parse(data); err != nil {
			panic(err)
		}
		for i := 0; i < iters/10+1; i++ {
			exterr.Parse(data)
		}
		t := make([]float64, rounds)
		for r := range t {
			t0 := time.Now()
			for i := 0; i < iters; i++ {
				exterr.Parse(data)
			}
			t[r] = float64(time.Since(t0).Nanoseconds()) / float64(iters)
		}
		sort.Float64s(t)
		fmt.Printf("go exterr %s min=%.1f median=%.1f\n", filepath.Base(filepath.Dir(path)), t[0], t[rounds/2])
	}
}
