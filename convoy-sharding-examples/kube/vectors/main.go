// Copyright 2026 The convoy-sharding authors
// SPDX-License-Identifier: Apache-2.0

// Writes the range-sharding test vectors that convoy-sharding-core's RangeShardVectorsTest reads,
// computed by the Kubernetes sharding package our real-API-server tier builds (k8s.io/apimachinery
// v0.37.2, pkg/sharding): HashField for the 64-bit FNV-1a of a field, and the package's own
// selector (NewSelector(...).Matches, HexLess) for which range of shard i of S holds a hash.
//
// Regenerate (from this directory; the module cache already holds apimachinery):
//
//	GOFLAGS=-mod=mod go run . > ../../../convoy-sharding-core/src/test/resources/range-shard-vectors.tsv
//
// Line forms (tab-separated; strings are written as the hex of their UTF-8 bytes):
//
//	hash    <string-hex>  <HashField(string)>
//	range   <S>  <i>  <start>  <end>                   the bounds of shard i of S, floor(2^64*i/S)
//	member  <string-hex>  <field>  <S>  <i>             the one i whose selector Matches the object
//	bound   <S>  <hash>  <i>                           the one i whose [start, end) holds hash (HexLess)
package main

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"os"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/sharding"
	"k8s.io/apimachinery/pkg/types"
)

var strings = []string{
	"",
	"a",
	"foobar",
	"default",
	"kube-system",
	"team-a",
	"ns/name",
	"café",
	"ünïcödé-ß-∑-€",
	"日本/東京",
	"\u07ff\u0800\uffff",
	"emoji-\U0001F680-rocket",
	"\U0001F600\U0001F601\U00010000\U0010FFFF",
	"0f6f4e5a-2b57-4c1e-9d1c-3a5e7c2b9f10",
	"6b1f0a8e-4d2c-4b7a-8e3f-1c9d2a7b5e40",
	"c3a9d2f1-7e6b-4a58-b0c4-9f2e1d8a6b73",
	"00000000-0000-0000-0000-000000000000",
	"ffffffff-ffff-ffff-ffff-ffffffffffff",
	"7d0b8c3e-91a4-4f26-a5d8-2e6c0f1b9a35",
	"e4f1a2b3-c4d5-46e7-98f9-0a1b2c3d4e5f",
}

var counts = []int64{1, 2, 3, 4, 5, 6, 7, 8, 10, 16, 31, 32, 33, 64, 100, 127, 128, 255, 256, 1000, 1024, 4095, 4096, 65535, 1 << 20, 2147483647}

var two64 = new(big.Int).Lsh(big.NewInt(1), 64)

func bound(i, s int64) *big.Int {
	b := new(big.Int).Mul(two64, big.NewInt(i))
	return b.Div(b, big.NewInt(s))
}

func hexBound(b *big.Int) string {
	return fmt.Sprintf("0x%016x", b)
}

func requirement(field string, i, s int64) sharding.ShardRangeRequirement {
	return sharding.ShardRangeRequirement{Key: field, Start: hexBound(bound(i, s)), End: hexBound(bound(i+1, s))}
}

// shards lists the shard indexes of S written out: all of them for small S, some for the others.
func shards(s int64) []int64 {
	if s <= 128 {
		out := make([]int64, s)
		for i := range out {
			out[i] = int64(i)
		}
		return out
	}
	seen := map[int64]bool{}
	var out []int64
	for _, i := range []int64{0, 1, 2, 3, s / 3, s / 2, s/2 + 1, (2 * s) / 3, s - 3, s - 2, s - 1} {
		if i >= 0 && i < s && !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	return out
}

// boundOwner finds the shard whose range holds hash with the package's own comparison.
func boundOwner(hash string, s int64) int64 {
	var found int64 = -1
	for i := int64(0); i < s; i++ {
		start, end := hexBound(bound(i, s)), hexBound(bound(i+1, s))
		if !sharding.HexLess(hash, start) && sharding.HexLess(hash, end) {
			if found >= 0 {
				panic(fmt.Sprintf("hash %s in two shards of %d", hash, s))
			}
			found = i
		}
		if s > 1<<16 && i > 16 {
			break // large S: the caller only asks about low shards there
		}
	}
	return found
}

func main() {
	out := os.Stdout
	for _, str := range strings {
		fmt.Fprintf(out, "hash\t%s\t0x%s\n", hex.EncodeToString([]byte(str)), sharding.HashField(str))
	}
	for _, s := range counts {
		for _, i := range shards(s) {
			r := requirement("object.metadata.uid", i, s)
			fmt.Fprintf(out, "range\t%d\t%d\t%s\t%s\n", s, i, r.Start, r.End)
		}
	}
	for _, field := range []string{"object.metadata.uid", "object.metadata.namespace"} {
		for _, str := range strings {
			obj := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "n", UID: types.UID(str), Namespace: str}}
			for _, s := range counts {
				if s > 1<<16 {
					continue
				}
				var found int64 = -1
				for i := int64(0); i < s; i++ {
					ok, err := sharding.NewSelector(requirement(field, i, s)).Matches(obj)
					if err != nil {
						panic(err)
					}
					if ok {
						if found >= 0 {
							panic(fmt.Sprintf("%q in two shards of %d", str, s))
						}
						found = i
					}
				}
				if found < 0 {
					panic(fmt.Sprintf("%q in no shard of %d", str, s))
				}
				fmt.Fprintf(out, "member\t%s\t%s\t%d\t%d\n", hex.EncodeToString([]byte(str)), field, s, found)
			}
		}
	}
	one := big.NewInt(1)
	for _, s := range counts {
		if s > 1<<16 {
			continue
		}
		for _, i := range shards(s) {
			start := bound(i, s)
			for _, h := range []*big.Int{new(big.Int).Sub(start, one), start, new(big.Int).Add(start, one)} {
				if h.Sign() < 0 {
					h = new(big.Int).Sub(two64, one) // below 0 wraps to the top: 2^64-1, the last shard's
				}
				hash := hexBound(h)
				fmt.Fprintf(out, "bound\t%d\t%s\t%d\n", s, hash, boundOwner(hash, s))
			}
		}
	}
}
