# Sanitizer and fuzzer builds (native only).
#
#   EMBEDLAB_SANITIZE=ON  every target is compiled and linked with AddressSanitizer +
#                         UndefinedBehaviorSanitizer; any UB report aborts the process
#                         (-fno-sanitize-recover=all), so a finding fails its Catch2 test.
#   EMBEDLAB_FUZZ=ON      also the libFuzzer targets tests/fuzz/fuzz_*.cpp (clang only; implies
#                         EMBEDLAB_SANITIZE). embedlab_core gets coverage instrumentation
#                         (-fsanitize=fuzzer-no-link) so the fuzzers see its edges; unit_tests link
#                         the same library (its coverage hooks are no-ops without libFuzzer).
# scripts/sanitize configures build/sanitize with both, with clang at -O2 and line tables.
#
# Usage: include(cmake/sanitize.cmake) after project() and before any target is defined;
# call embedlab_add_fuzzers() once embedlab_core exists.
include_guard(GLOBAL)

option(EMBEDLAB_SANITIZE "Build with AddressSanitizer + UndefinedBehaviorSanitizer (native only)" OFF)
option(EMBEDLAB_FUZZ "Build the libFuzzer targets in tests/fuzz (native clang; implies EMBEDLAB_SANITIZE)" OFF)

if(EMBEDLAB_FUZZ)
  set(EMBEDLAB_SANITIZE ON)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "EMBEDLAB_FUZZ needs clang (libFuzzer), not ${CMAKE_CXX_COMPILER_ID}. "
                        "HINT: configure with -DCMAKE_CXX_COMPILER=clang++ (scripts/sanitize does).")
  endif()
endif()

if(EMBEDLAB_SANITIZE)
  if(EMSCRIPTEN)
    message(FATAL_ERROR "EMBEDLAB_SANITIZE/EMBEDLAB_FUZZ are native-only options")
  endif()
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()

# One executable per tests/fuzz/fuzz_<name>.cpp, named fuzz_<name>; fuzz_cli_args also compiles
# the CLI (src/cli/*.cpp but main.cpp, and the map algorithms' src/maps/*/*_cli.cpp: the parser
# and the commands' flag declarations), which is not part of embedlab_core.
function(embedlab_add_fuzzers)
  if(NOT EMBEDLAB_FUZZ)
    return()
  endif()
  target_compile_options(embedlab_core PRIVATE -fsanitize=fuzzer-no-link)
  file(GLOB fuzz_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/fuzz/fuzz_*.cpp)
  file(GLOB cli_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/cli/*.cpp)
  list(FILTER cli_sources EXCLUDE REGEX "/src/cli/main\\.cpp$")
  foreach(source ${fuzz_sources})
    get_filename_component(name ${source} NAME_WE)
    add_executable(${name} ${source})
    target_link_libraries(${name} PRIVATE embedlab_core)
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    if(name STREQUAL "fuzz_cli_args")
      target_sources(${name} PRIVATE ${cli_sources} ${EMBEDLAB_MAP_CLI_SOURCES})
    endif()
  endforeach()
endfunction()
