extension SandboxPlan {
    /// Starts what the plan's first launch would otherwise do on its path, each on a thread of
    /// its own: the kernel's sandbox probe (once per process, ``SandboxStatus``) and, for a root
    /// host, the plan's root template (``SandboxTemplates``). Both clone into a new mount
    /// namespace, which copies the host's mount table; the template's build also waits for an
    /// RCU grace period. The launch waits only for what is left of them.
    func prepareLaunches() {
        SandboxStatus.prepare()
        SandboxTemplates.prepare(self)
    }
}
