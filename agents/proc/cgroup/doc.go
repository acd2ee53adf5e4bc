// Package cgroup serves the cgroup.* metrics of PCP's proc agent (pmdaproc,
// domain 3): control group subsystems and mounts, and per-cgroup cpuset,
// cpuacct, cpu scheduling, memory, net_cls, blkio, and the cgroup v2 cpu,
// io and pressure files, with PCP 6.0.3's names, PMIDs, descriptors,
// instance domains, instance names and labels (pcpdesc_table.go is
// generated from PCP's own pmdaproc by ../../internal/gendesc).
//
// # Shape
//
// A Source holds the cgroup state of one agent. The proc agent routes to
// it by PMID cluster and instance domain serial:
//
//	cg := cgroup.New(cgroup.Options{Root: statsPath}) // "" reads the live system
//	metrics = append(metrics, cg.Metrics()...)        // pmda.Metric with Name and help set
//	indoms = append(indoms, cg.InDoms()...)           // instances come from Instances
//
//	// Refresh(ctx, pmids):            cg.Refresh(pmids)  (other clusters' PMIDs are ignored)
//	// FetchSet(ctx, c, pmid, pv, add): if cgroup.HasCluster(pmid.Cluster()) { return cg.FetchSet(pmid, pv, add) }
//	//   or, for a Fetcher:             if cgroup.HasCluster(m.Desc.PMID.Cluster()) { return cg.Fetch(m, inst) }
//	// Instances(ctx, c, indom):        if cgroup.HasInDom(indom.Serial()) {
//	//                                      if !inFetch { cg.RefreshInDom(indom) } // instance requests only, as pmdaproc
//	//                                      return cg.Instances(indom)
//	//                                  }
//
// Instances carry their labels ({"cgroup":...}, and "device_name" or "cpu"
// for the per-device and per-CPU domains); InDoms carry the domain labels
// ({"device_type":...}) as pmdaproc gives them. The cgroup metrics need
// no credentials. The test-only agent in agent_test.go is this routing in
// full, and is what the tests compare with PCP's pmdaproc.
//
// # Rules followed
//
// The values follow pmdaproc's refresh rules, which are a cache per
// instance domain (pmda.Cache): each fetch makes the instances of the
// clusters it asks for inactive, then every mount that carries the
// subsystem (every cgroup2 mount, every cgroup mount whose options name it)
// is walked in /proc/mounts order, making inactive again what the mounts
// before it found, and each cgroup found is read once, keeping values of
// files it cannot read from before where pmdaproc does. On a host with
// both cgroup and cgroup2 mounts ("hybrid"), PCP reads the v1 files through
// both, so the last mount walked gives the values; on a cgroup2-only host
// the v1 clusters are read as pmdaproc reads them there. These are PCP's
// behaviours, kept so that values match PCP's on every host rather than
// only on one; they are documented at the functions that keep them.
//
// Containers: for a client that names a container, pmdaproc reads only the
// container's cgroups; RefreshContainer does that given the container's
// cgroup path. Finding that path (pmdaproc asks pmdaroot) is the agent's.
//
// # Bad input
//
// Files are read with a size bound (maxFile, 1 MiB) and in line pieces of
// at most PCP's buffer sizes; a file that cannot be read or parsed loses
// only its own values, as PCP's readers lose them; the number of cgroups
// walked per mount is bounded (Options.MaxCgroups), as is the depth of the
// walk (PATH_MAX); each instance domain's cache forgets inactive cgroups
// past keepFactor*MaxCgroups names, where pmdaproc keeps them all.
//
// Options.Root is one prefix for every path, /proc and the mount points
// /proc/mounts names alike, as PCP's PROC_STATSPATH is, so a fixture tree
// holds proc/mounts and the cgroup file systems it names (testdata/*.tree,
// which PCP's pmdaproc reads too in the tests).
package cgroup
