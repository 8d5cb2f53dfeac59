// Package validate checks the Kubernetes manifests under deploy/ against
// the Kubernetes API's own Go types, offline: each kustomization is built
// with kustomize's own library (what `kubectl apply -k` applies), every
// resource is decoded strictly (an unknown or misspelt field, a wrong type
// or a missing kind fails), then held to what running gpuscout for a team
// needs. It also holds the container image's Go to go.mod's.
package validate

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// set is one built kustomization's resources, by kind (one of each).
type set struct {
	Deployment *appsv1.Deployment
	Service    *corev1.Service
	PVC        *corev1.PersistentVolumeClaim
	CronJob    *batchv1.CronJob
	Job        *batchv1.Job
	PDB        *policyv1.PodDisruptionBudget
}

// build runs kustomize on dir and decodes every resource strictly.
func build(t *testing.T, dir string) set {
	t.Helper()
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	m, err := k.Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	var s set
	for _, r := range m.Resources() {
		doc, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		var obj any
		kind := r.GetApiVersion() + " " + r.GetKind()
		switch kind {
		case "apps/v1 Deployment":
			s.Deployment = &appsv1.Deployment{}
			obj = s.Deployment
		case "v1 Service":
			s.Service = &corev1.Service{}
			obj = s.Service
		case "v1 PersistentVolumeClaim":
			s.PVC = &corev1.PersistentVolumeClaim{}
			obj = s.PVC
		case "batch/v1 CronJob":
			s.CronJob = &batchv1.CronJob{}
			obj = s.CronJob
		case "batch/v1 Job":
			s.Job = &batchv1.Job{}
			obj = s.Job
		case "policy/v1 PodDisruptionBudget":
			s.PDB = &policyv1.PodDisruptionBudget{}
			obj = s.PDB
		default:
			t.Fatalf("%s: unexpected %s %s", dir, kind, r.GetName())
		}
		if err := yaml.UnmarshalStrict(doc, obj); err != nil {
			t.Fatalf("%s: %s %s: %v", dir, kind, r.GetName(), err)
		}
	}
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			t.Fatalf("%s has no %s", dir, v.Type().Field(i).Name)
		}
	}
	return s
}

// TestManifests: the team deployment, deploy/kubernetes.
func TestManifests(t *testing.T) {
	s := build(t, "../kubernetes")
	d := s.Deployment
	if d.Spec.Replicas == nil || *d.Spec.Replicas < 2 {
		t.Error("the Deployment runs fewer than two replicas")
	}
	checkServing(t, s)
	if !slices.Contains(s.PVC.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Error("the snapshot volume must be ReadWriteMany: one writer, many readers on different nodes")
	}
}

// checkServing holds what both variants need.
func checkServing(t *testing.T, s set) {
	t.Helper()
	d := s.Deployment
	if !labelsMatch(d.Spec.Selector.MatchLabels, d.Spec.Template.Labels) {
		t.Error("the Deployment's selector does not select its pods")
	}
	c := d.Spec.Template.Spec.Containers[0]
	checkProbes(t, c)
	args := strings.Join(c.Args, " ")
	for _, want := range []string{"serve", "--addr=0.0.0.0:8080", "--db=/snapshot/gpuscout.db", "--db-read-only", "--watch=",
		"--stale-after=", "--drain-delay="} {
		if !strings.Contains(args, want) {
			t.Errorf("server args %q lack %s", args, want)
		}
	}
	if !mountedReadOnly(c, d.Spec.Template.Spec.Volumes, "/snapshot") {
		t.Error("the replicas must mount the snapshot read-only")
	}
	checkHardened(t, "Deployment", d.Spec.Template.Spec)
	checkDigests(t, "Deployment", d.Spec.Template.Spec)

	if !labelsMatch(s.Service.Spec.Selector, d.Spec.Template.Labels) {
		t.Error("the Service does not select the Deployment's pods")
	}
	checkPDB(t, s.PDB, d)

	cj := s.CronJob
	if cj.Spec.ConcurrencyPolicy != batchv1.ForbidConcurrent {
		t.Error("two price updates may run at once: set concurrencyPolicy Forbid")
	}
	pod := cj.Spec.JobTemplate.Spec.Template.Spec
	checkUpdatePod(t, "CronJob", pod)
	checkFirstUpdate(t, s)
}

// checkProbes: liveness touches no data (/livez), readiness says whether
// data is loaded and the replica is not draining (/readyz), and a startup
// probe covers loading a big snapshot so liveness does not kill it.
func checkProbes(t *testing.T, c corev1.Container) {
	t.Helper()
	for _, p := range []struct {
		name  string
		probe *corev1.Probe
		path  string
	}{{"liveness", c.LivenessProbe, "/livez"}, {"readiness", c.ReadinessProbe, "/readyz"}, {"startup", c.StartupProbe, "/livez"}} {
		if p.probe == nil || p.probe.HTTPGet == nil || p.probe.HTTPGet.Path != p.path {
			t.Errorf("%s: the %s probe must GET %s", c.Name, p.name, p.path)
		}
	}
	if sp := c.StartupProbe; sp != nil && sp.PeriodSeconds*sp.FailureThreshold < 60 {
		t.Errorf("%s: the startup probe gives loading %d s; a big snapshot needs at least 60 s", c.Name, sp.PeriodSeconds*sp.FailureThreshold)
	}
}

// checkPDB: a voluntary disruption evicts at most some replicas, but never
// blocks a node drain for ever (it must allow at least one eviction).
func checkPDB(t *testing.T, pdb *policyv1.PodDisruptionBudget, d *appsv1.Deployment) {
	t.Helper()
	if pdb.Spec.Selector == nil || !labelsMatch(pdb.Spec.Selector.MatchLabels, d.Spec.Template.Labels) {
		t.Error("the PodDisruptionBudget does not select the Deployment's pods")
	}
	replicas := int(*d.Spec.Replicas)
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		if pdb.Spec.MaxUnavailable.IntValue() < 1 {
			t.Error("the PodDisruptionBudget allows no eviction: node drains would block")
		}
	case pdb.Spec.MinAvailable != nil:
		if pdb.Spec.MinAvailable.IntValue() >= replicas {
			t.Errorf("the PodDisruptionBudget keeps %d of %d replicas: node drains would block", pdb.Spec.MinAvailable.IntValue(), replicas)
		}
	default:
		t.Error("the PodDisruptionBudget sets neither maxUnavailable nor minAvailable")
	}
}

// checkUpdatePod: update first (init container), then publish what the
// replicas read; bounded resources.
func checkUpdatePod(t *testing.T, what string, pod corev1.PodSpec) {
	t.Helper()
	if len(pod.InitContainers) != 1 || !slices.Contains(pod.InitContainers[0].Args, "update") {
		t.Errorf("%s: must update prices first (init container)", what)
	}
	if len(pod.Containers) != 1 || !slices.Contains(pod.Containers[0].Args, "publish") ||
		!slices.Contains(pod.Containers[0].Args, "--to=/snapshot/gpuscout.db") {
		t.Errorf("%s: must publish the snapshot the replicas read", what)
	}
	for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
		r := c.Resources
		if r.Requests.Cpu().IsZero() || r.Requests.Memory().IsZero() || r.Limits.Memory().IsZero() || r.Limits.Cpu().IsZero() {
			t.Errorf("%s container %s: needs cpu and memory requests and limits", what, c.Name)
		}
	}
	checkHardened(t, what, pod)
	checkDigests(t, what, pod)
}

// checkFirstUpdate: a fresh install runs the price update at once (a Job,
// the CronJob's own pod) instead of serving the embedded catalog until the
// first schedule, up to six hours later.
func checkFirstUpdate(t *testing.T, s set) {
	t.Helper()
	job := s.Job
	if !reflect.DeepEqual(job.Spec.Template, s.CronJob.Spec.JobTemplate.Spec.Template) {
		t.Error("the first-update Job's pod differs from the CronJob's: keep first-update-job.yaml in step with cronjob.yaml")
	}
	if job.Spec.TTLSecondsAfterFinished == nil {
		t.Error("the first-update Job needs ttlSecondsAfterFinished, or a later apply fails on its immutable pod template")
	}
	if job.Spec.ActiveDeadlineSeconds == nil {
		t.Error("the first-update Job needs activeDeadlineSeconds")
	}
}

// digest is an image reference pinned by its content.
var digest = regexp.MustCompile(`@sha256:[0-9a-f]{64}$`)

// checkDigests: every container runs an image by digest, not by a tag that
// can move between pulls.
func checkDigests(t *testing.T, what string, pod corev1.PodSpec) {
	t.Helper()
	for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
		if !digest.MatchString(c.Image) {
			t.Errorf("%s container %s: image %q is not pinned by digest (name@sha256:…)", what, c.Name, c.Image)
		}
	}
}

// TestSingleReplicaVariant: without ReadWriteMany storage, one replica on a
// ReadWriteOnce volume, the writers on its node, no surge pod elsewhere.
func TestSingleReplicaVariant(t *testing.T) {
	s := build(t, "../kubernetes-single")
	if !slices.Equal(s.PVC.Spec.AccessModes, []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}) {
		t.Errorf("the single-replica volume must be ReadWriteOnce, is %v", s.PVC.Spec.AccessModes)
	}
	if s.Deployment.Spec.Replicas == nil || *s.Deployment.Spec.Replicas != 1 {
		t.Error("the ReadWriteOnce variant must run one replica")
	}
	if s.Deployment.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		t.Error("the ReadWriteOnce variant must recreate its pod: a surge pod on another node cannot mount the volume")
	}
	for what, pod := range map[string]corev1.PodSpec{"CronJob": s.CronJob.Spec.JobTemplate.Spec.Template.Spec, "Job": s.Job.Spec.Template.Spec} {
		if !onReplicaNode(pod, s.Deployment.Spec.Template.Labels) {
			t.Errorf("%s: the update must be scheduled onto the replica's node (pod affinity on kubernetes.io/hostname)", what)
		}
	}
	checkServing(t, s)
}

func onReplicaNode(pod corev1.PodSpec, labels map[string]string) bool {
	if pod.Affinity == nil || pod.Affinity.PodAffinity == nil {
		return false
	}
	for _, term := range pod.Affinity.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		if term.TopologyKey == corev1.LabelHostname && term.LabelSelector != nil && labelsMatch(term.LabelSelector.MatchLabels, labels) {
			return true
		}
	}
	return false
}

func labelsMatch(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return true
}

func mountedReadOnly(c corev1.Container, vols []corev1.Volume, path string) bool {
	for _, m := range c.VolumeMounts {
		if m.MountPath != path || !m.ReadOnly {
			continue
		}
		for _, v := range vols {
			if v.Name == m.Name && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ReadOnly {
				return true
			}
		}
	}
	return false
}

// checkHardened: non-root, no privilege escalation, read-only root, no
// capabilities — the image runs as user 65532 and needs none of them.
func checkHardened(t *testing.T, what string, pod corev1.PodSpec) {
	t.Helper()
	if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
		t.Errorf("%s: pods must run as non-root", what)
	}
	for _, c := range append(slices.Clone(pod.InitContainers), pod.Containers...) {
		sc := c.SecurityContext
		name := fmt.Sprintf("%s container %s", what, c.Name)
		if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
			sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
			sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") {
			t.Errorf("%s: needs allowPrivilegeEscalation false, readOnlyRootFilesystem true, capabilities drop ALL", name)
		}
	}
}

// TestStrictDecodingCatchesMistakes: the checker is strict — a misspelt
// field is an error, not silently dropped.
func TestStrictDecodingCatchesMistakes(t *testing.T) {
	bad := []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replica: 3\n")
	if err := yaml.UnmarshalStrict(bad, &appsv1.Deployment{}); err == nil {
		t.Error("a misspelt field (replica) was accepted")
	}
}

// TestImageGoMatchesGoMod: does `make image` build offline? The build
// image's Go must be the version go.mod asks for (its toolchain line, else
// its go line); an older one would download a toolchain, which an offline
// build cannot, and GOTOOLCHAIN=local makes that a clear error instead.
func TestImageGoMatchesGoMod(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	dockerfile, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := imageGo(string(dockerfile)), modGo(string(mod)); got == "" || got != want {
		t.Errorf("the Dockerfile builds with Go %q, go.mod asks for Go %q: set ARG GO_IMAGE=golang:%s-… (optionally @sha256:…)", got, want, want)
	}
	if !regexp.MustCompile(`(?m)^ENV GOTOOLCHAIN=local\b`).Match(dockerfile) {
		t.Error("the Dockerfile's build stage should set ENV GOTOOLCHAIN=local, so a mismatch fails instead of downloading")
	}
}

// modGo is the Go version go.mod needs: its toolchain line, else its go line.
func modGo(mod string) string {
	if m := regexp.MustCompile(`(?m)^toolchain go(\S+)`).FindStringSubmatch(mod); m != nil {
		return m[1]
	}
	if m := regexp.MustCompile(`(?m)^go (\S+)`).FindStringSubmatch(mod); m != nil {
		return m[1]
	}
	return ""
}

// imageGo is the Go version of the Dockerfile's default build image
// (ARG GO_IMAGE=golang:1.26.8-bookworm[@sha256:…]).
func imageGo(dockerfile string) string {
	if m := regexp.MustCompile(`(?m)^ARG GO_IMAGE=golang:(\d+\.\d+(?:\.\d+)?)\b`).FindStringSubmatch(dockerfile); m != nil {
		return m[1]
	}
	return ""
}

func TestVersionParsers(t *testing.T) {
	if got := modGo("module x\n\ngo 1.26.8\n"); got != "1.26.8" {
		t.Errorf("modGo = %q", got)
	}
	if got := modGo("module x\n\ngo 1.26.0\n\ntoolchain go1.26.8\n"); got != "1.26.8" {
		t.Errorf("modGo with toolchain = %q", got)
	}
	if got := imageGo("ARG GO_IMAGE=golang:1.26-bookworm\n"); got != "1.26" {
		t.Errorf("imageGo = %q", got)
	}
	if got := imageGo("ARG GO_IMAGE=golang:1.26.8-bookworm@sha256:abc\n"); got != "1.26.8" {
		t.Errorf("imageGo pinned = %q", got)
	}
}
