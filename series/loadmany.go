package series

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/gopcp/gopcp/series/resp"

	"github.com/gopcp/gopcp/archive"
)

// LoadAll loads several archives: those of one host one after another in
// time order (a value stream takes entries only in time order), different
// hosts side by side, at most parallel at once (1 when not positive).
// Every archive is loaded as far as it can be; the errors are joined.
func LoadAll(ctx context.Context, c resp.Client, paths []string, opt LoadOptions, parallel int) ([]LoadStats, error) {
	if len(paths) == 1 {
		// nothing to put in order: opening a compressed archive once
		// more only to read its label was a third of a load's time
		s, err := Load(ctx, c, paths[0], opt)
		return []LoadStats{s}, err
	}
	type item struct {
		i     int
		path  string
		host  string
		start int64
		nsec  int32
	}
	var items []item
	var errs []error
	for i, p := range paths {
		a, err := archive.Open(p, archive.Options{})
		if err != nil {
			errs = append(errs, fmt.Errorf("cannot open archive %q: %w", p, err))
			continue
		}
		items = append(items, item{i, p, a.Label.Hostname, a.Label.Start.Sec, a.Label.Start.Nsec})
		a.Close()
	}
	if err := CheckSchema(ctx, c); err != nil {
		return nil, err
	}
	slices.SortStableFunc(items, func(a, b item) int {
		switch {
		case a.host != b.host:
			if a.host < b.host {
				return -1
			}
			return 1
		case a.start != b.start:
			return int(a.start - b.start)
		}
		return int(a.nsec - b.nsec)
	})
	var groups [][]item
	for _, it := range items {
		if n := len(groups); n > 0 && groups[n-1][0].host == it.host {
			groups[n-1] = append(groups[n-1], it)
		} else {
			groups = append(groups, []item{it})
		}
	}
	if parallel < 1 {
		parallel = 1
	}
	stats := make([]LoadStats, len(paths))
	gerrs := make([][]error, len(groups))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for gi, g := range groups {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			for _, it := range g {
				s, err := Load(ctx, c, it.path, opt)
				stats[it.i] = s
				if err != nil {
					gerrs[gi] = append(gerrs[gi], err)
				}
			}
		}()
	}
	wg.Wait()
	for _, e := range gerrs {
		errs = append(errs, e...)
	}
	return stats, joinErrs(errs)
}

func joinErrs(errs []error) error {
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	err := errs[0]
	for _, e := range errs[1:] {
		err = fmt.Errorf("%w; %w", err, e)
	}
	return err
}
