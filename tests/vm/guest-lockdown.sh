#!/bin/sh
# The last part of the guest run (sourced by the VM's /init after the
# guest suite, whose tap, ptcompare_exit and $only it uses): kernel
# lockdown, raised at run time as Secure Boot would have it from boot
# (integrity; it cannot be lowered again).  debugfs then refuses ptwalk's
# files, /dev/ptwalk answers: vmtest --lockdown checks both, and runs
# walks and ptcompare cases again against the fixture's oracle.
lockdown=/sys/kernel/security/lockdown
grep -q ' /sys/kernel/security securityfs ' /proc/mounts ||
	mount -t securityfs securityfs /sys/kernel/security
if [ ! -e $lockdown ]; then
	tap FAIL lockdown_raised "no $lockdown: the kernel lacks the lockdown LSM (CONFIG_SECURITY_LOCKDOWN_LSM, lsm=lockdown,...)"
elif echo integrity > $lockdown && grep -q '\[integrity\]' $lockdown; then
	tap OK lockdown_raised
else
	tap FAIL lockdown_raised "lockdown reads '$(cat $lockdown)'"
fi
/bin/vmtest --lockdown $only
# One line, status 4 (lockdown), naming lockdown, when only debugfs may be used.
ptcompare_exit lockdown_ptcompare_one_line 4 "kernel lockdown (integrity" --debugfs /sys/kernel/debug $$
# The shell idiom of the text view is refused too (it is debugfs only);
# in a subshell: a failed exec redirection ends a non-interactive shell.
if (exec 5<>/sys/kernel/debug/ptwalk/text) 2>/dev/null; then
	tap FAIL lockdown_text_view_refused "the text view opened under lockdown"
else
	tap OK lockdown_text_view_refused
fi
if out=$(ptcompare $$) && echo "$out" | grep -q "^verdict: ok: all "; then
	tap OK lockdown_ptcompare_shell_report
else
	tap FAIL lockdown_ptcompare_shell_report "exit $?, output: $(echo "$out" | tail -2)"
fi
# Confidentiality last (it cannot be lowered either): ptwalk then withholds
# the page-table addresses of vtop's upper levels (interface.md).
if echo confidentiality > $lockdown && grep -q '\[confidentiality\]' $lockdown; then
	tap OK confidentiality_raised
else
	tap FAIL confidentiality_raised "lockdown reads '$(cat $lockdown)'"
fi
/bin/vmtest --confidentiality $only
# The IOMMU cases' part under it (cases_owner.c), when they ran above.
if grep -q ' ptwalk_iommu_cases=1' /proc/cmdline; then
	/bin/vmtest --iommu-lockdown $only
fi
if out=$(ptcompare $$ 2>&1) && echo "$out" | grep -q "^verdict: ok: all "; then
	tap OK confidentiality_ptcompare_report
else
	tap FAIL confidentiality_ptcompare_report "exit $?, output: $(echo "$out" | tail -2)"
fi
