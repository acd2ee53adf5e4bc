package mmv

import "strconv"

// InDomOptions describe an instance domain.
type InDomOptions struct {
	// Serial is the instance domain's number in the file, 1 to
	// MaxSerial; 0 takes the lowest one free.
	Serial    uint32
	ShortHelp string
	LongHelp  string // pmdammv never serves it, but it is in the file
	Labels    []Label
}

// Instance is one instance of an instance domain.
type Instance struct {
	ID     int32
	Name   string
	Labels []Label
}

type instance struct {
	ID     int32
	Name   string
	labels []label
}

// InDom is an instance domain of a registry.
type InDom struct {
	r      *Registry
	serial uint32
	short  string
	help   string
	labels []label
	insts  []instance
	ids    map[int32]bool
	inames map[string]bool
}

// Serial is the instance domain's serial number in the file.
func (d *InDom) Serial() uint32 { return d.serial }

// AddInDom adds an instance domain with its first instances. After Start
// the file is rewritten with a new generation.
func (r *Registry) AddInDom(insts []Instance, o InDomOptions) (*InDom, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	what := "instance domain " + strconv.FormatUint(uint64(o.Serial), 10)
	if r.closed {
		return nil, errorf(ErrClosed, what, "registry is closed")
	}
	if o.Serial > MaxSerial {
		return nil, errorf(ErrRange, what, "serial is above %d", MaxSerial)
	}
	serial := o.Serial
	if serial == 0 {
		for serial = 1; r.serials[serial]; serial++ {
		}
		if serial > MaxSerial {
			return nil, errorf(ErrRange, what, "no serial left")
		}
		what = "instance domain " + strconv.FormatUint(uint64(serial), 10)
	} else if r.serials[serial] {
		return nil, errorf(ErrExists, what, "serial already used")
	}
	if err := checkText(what, o.ShortHelp); err != nil {
		return nil, err
	}
	if err := checkText(what, o.LongHelp); err != nil {
		return nil, err
	}
	ls, err := checkLabels(what, o.Labels)
	if err != nil {
		return nil, err
	}
	d := &InDom{r: r, serial: serial, short: o.ShortHelp, help: o.LongHelp, labels: ls,
		ids: map[int32]bool{}, inames: map[string]bool{}}
	for _, i := range insts {
		if err := d.check(i); err != nil {
			return nil, err
		}
		il, _ := checkLabels(what, i.Labels) // checked by d.check
		d.insts = append(d.insts, instance{i.ID, i.Name, il})
		d.ids[i.ID], d.inames[i.Name] = true, true
	}
	if err := r.checkLabelCount(len(ls) + countInstLabels(d.insts)); err != nil {
		return nil, err
	}
	r.serials[serial] = true
	r.indoms = append(r.indoms, d)
	if err := r.rewrite(); err != nil {
		r.indoms = r.indoms[:len(r.indoms)-1]
		delete(r.serials, serial)
		return nil, err
	}
	return d, nil
}

func countInstLabels(is []instance) int {
	n := 0
	for _, i := range is {
		n += len(i.labels)
	}
	return n
}

// check refuses an instance with a bad or duplicate name or id.
func (d *InDom) check(i Instance) error {
	what := "instance " + strconv.Quote(i.Name) + " of instance domain " + strconv.FormatUint(uint64(d.serial), 10)
	if err := checkInstanceName(what, i.Name); err != nil {
		return err
	}
	if d.ids[i.ID] {
		return errorf(ErrExists, what, "instance id %d already used", i.ID)
	}
	if d.inames[i.Name] {
		return errorf(ErrExists, what, "instance name already used")
	}
	_, err := checkLabels(what, i.Labels)
	return err
}

// AddInstance adds an instance to the domain: every metric over it gains a
// value. After Start the file is rewritten with a new generation.
func (d *InDom) AddInstance(i Instance) error {
	r := d.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return errorf(ErrClosed, "instance "+strconv.Quote(i.Name), "registry is closed")
	}
	if err := d.check(i); err != nil {
		return err
	}
	il, _ := checkLabels("", i.Labels)
	if err := r.checkLabelCount(len(il)); err != nil {
		return err
	}
	d.insts = append(d.insts, instance{i.ID, i.Name, il})
	d.ids[i.ID], d.inames[i.Name] = true, true
	for _, m := range r.metrics {
		if m.indom == d {
			m.cells = append(m.cells, newCell(m.typ))
		}
	}
	if err := r.rewrite(); err != nil {
		d.insts = d.insts[:len(d.insts)-1]
		delete(d.ids, i.ID)
		delete(d.inames, i.Name)
		for _, m := range r.metrics {
			if m.indom == d {
				m.cells = m.cells[:len(m.cells)-1]
			}
		}
		return err
	}
	return nil
}

func (r *Registry) checkLabelCount(more int) error {
	if n := len(r.allLabels()) + more; n > maxLabels {
		return errorf(ErrRange, "registry "+strconv.Quote(r.name), "%d labels, pmdammv reads at most %d", n, maxLabels)
	}
	return nil
}
