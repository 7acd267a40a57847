# Tests of the Windows build (make windows): the unit tests that hold on
# both systems (test_plat, test_reg*, test_win*) as .exe files, run under
# Wine through tools/wine-run.sh (own WINEPREFIX in the build dir). Without
# Wine they are skipped visibly (exit 77).
list(FILTER GD_UNIT_TESTS INCLUDE REGEX "/test_(plat|reg|win|fs_links|pe_slim|probe_verdict)[^/]*\\.c$")
set(GD_WINE_RUN ${CMAKE_SOURCE_DIR}/tools/wine-run.sh)
foreach(src ${GD_UNIT_TESTS})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_link_libraries(${name} PRIVATE gdlib)
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/unit)
  add_test(NAME win/${name}
           COMMAND ${GD_WINE_RUN} ${CMAKE_BINARY_DIR} $<TARGET_FILE:${name}>
           WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set_tests_properties(win/${name} PROPERTIES LABELS "unit;windows"
    TIMEOUT 300 SKIP_RETURN_CODE 77)
endforeach()

# A test double for try/run under Wine (tests/scripts/test_windows.sh): a
# child that hangs, crashes with an access violation, or leaves a process
# behind, on demand.
add_executable(fake_win_app ${CMAKE_CURRENT_SOURCE_DIR}/win/fake_win_app.c)

# Test doubles of the driver's HIP runtimes side by side (both say "no
# device"): probe must run one child per DLL and say which answered what.
foreach(major 7 6)
  add_library(fake_amdhip64_${major} SHARED
              ${CMAKE_CURRENT_SOURCE_DIR}/win/fake_amdhip64.c)
  target_compile_definitions(fake_amdhip64_${major} PRIVATE
                             GD_FAKE_MAJOR=${major})
  # exported entry points, declared by no header of ours
  target_compile_options(fake_amdhip64_${major} PRIVATE
                         -Wno-missing-prototypes)
  set_target_properties(fake_amdhip64_${major} PROPERTIES PREFIX ""
                        OUTPUT_NAME amdhip64_${major})
endforeach()

# The real program of test_run_explain.sh, built for Windows: `run` under
# Wine passes its output through and explains its runtime error text.
add_executable(run_child ${CMAKE_CURRENT_SOURCE_DIR}/run/run_child.c)
