/* test_write_cache.c — the write-cache plan per transport (no device is touched). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "device/write_cache.h"

static void test_plans(void **state)
{
    (void)state;
    struct purge_facts f;
    struct wcache_plan p;
    memset(&f, 0, sizeof(f));
    strcpy(f.devpath, "/dev/nvme1n1");
    f.transport = PURGE_T_NVME;
    f.have_nvme_cli = true;
    wcache_plan_make(&f, false, &p);
    assert_true(p.supported);
    assert_string_equal(p.text, "nvme set-feature /dev/nvme1n1 --feature-id=6 --value=0");
    assert_string_equal(p.argv[0], "nvme");
    assert_string_equal(p.argv[4], "--value=0");
    assert_null(p.argv[5]);
    wcache_plan_make(&f, true, &p);
    assert_string_equal(p.argv[4], "--value=1");
    f.have_nvme_cli = false;
    wcache_plan_make(&f, true, &p);
    assert_false(p.supported);
    assert_non_null(strstr(p.reason, "nvme-cli"));

    strcpy(f.devpath, "/dev/sdb");
    f.transport = PURGE_T_ATA;
    f.have_hdparm = true;
    wcache_plan_make(&f, false, &p);
    assert_true(p.supported);
    assert_string_equal(p.text, "hdparm -W0 /dev/sdb");
    assert_string_equal(p.argv[2], "/dev/sdb");

    const enum purge_transport none[] = {PURGE_T_SCSI, PURGE_T_SIM, PURGE_T_FILE,
                                         PURGE_T_OTHER_BLOCK};
    for (size_t i = 0; i < 4; i++) {
        f.transport = none[i];
        wcache_plan_make(&f, true, &p);
        assert_false(p.supported);
        assert_true(strlen(p.reason) > 10);
        char err[256];
        assert_int_equal(wcache_apply(&p, err, sizeof(err)), -1);
        assert_non_null(strstr(err, "write cache"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_plans)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
