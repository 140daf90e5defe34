# Installing storebench as the tools it stands beside are installed (sysbench, fio and pgbench
# come from Debian packages with a man page and bash completion): `cmake --install build` and
# `make deb` (CPack, https://cmake.org/cmake/help/latest/cpack_gen/deb.html). What goes where:
#   bin/storebench                                  the program (never links libmpi)
#   share/doc/storebench/README.md, *.md, output-schema.json, examples/   the documentation, the
#                                                   example plans and configuration files (Debian
#                                                   policy 12.6 puts examples in
#                                                   /usr/share/doc/<package>/examples)
#   share/man/man1/storebench.1.gz                  the man page (built when help2man is found)
#   share/bash-completion/completions/storebench    bash completion
#   bin/storebench-mpi                              component "mpi": its own package, so that the
#                                                   storebench package never needs Open MPI
# The SQL is compiled into the program and nothing is read from the install prefix at run time.
include(GNUInstallDirs)

# The man page and the completion, generated from the built program's --help, so they list the
# commands and options that build has (cmake/cli_files.sh).
set(SB_CLI_FILES_DIR ${CMAKE_BINARY_DIR}/cli-files)
set(SB_CLI_FILES ${SB_CLI_FILES_DIR}/storebench)
add_custom_command(
  OUTPUT ${SB_CLI_FILES_DIR}/storebench
  COMMAND ${CMAKE_COMMAND} -E make_directory ${SB_CLI_FILES_DIR}
  COMMAND bash ${CMAKE_SOURCE_DIR}/cmake/cli_files.sh completion $<TARGET_FILE:storebench>
          ${SB_CLI_FILES_DIR}/storebench
  DEPENDS storebench ${CMAKE_SOURCE_DIR}/cmake/cli_files.sh
  COMMENT "bash completion from storebench --help"
  VERBATIM)
find_program(HELP2MAN_EXECUTABLE help2man)
if(HELP2MAN_EXECUTABLE)
  add_custom_command(
    OUTPUT ${SB_CLI_FILES_DIR}/storebench.1.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${SB_CLI_FILES_DIR}
    COMMAND bash ${CMAKE_SOURCE_DIR}/cmake/cli_files.sh man $<TARGET_FILE:storebench>
            ${CMAKE_INSTALL_DOCDIR} ${SB_CLI_FILES_DIR}/storebench.1.gz
    DEPENDS storebench ${CMAKE_SOURCE_DIR}/cmake/cli_files.sh
    COMMENT "man page from storebench --help (help2man)"
    VERBATIM)
  list(APPEND SB_CLI_FILES ${SB_CLI_FILES_DIR}/storebench.1.gz)
else()
  message(STATUS "help2man not found: no man page (scripts/install-deps.sh test installs it)")
endif()
add_custom_target(storebench_cli_files ALL DEPENDS ${SB_CLI_FILES})

# What `make deb` builds: everything the packages hold, and nothing else (no tests).
add_custom_target(install_files DEPENDS storebench storebench_cli_files)
if(STOREBENCH_MPI)
  add_dependencies(install_files storebench-mpi)
endif()
# `cmake --install` and cpack install what is built (make deb builds install_files first)
# instead of building every target, tests included, first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)

install(TARGETS storebench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT storebench)
file(GLOB SB_DOC_FILES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/*.md)
install(FILES ${CMAKE_SOURCE_DIR}/README.md ${SB_DOC_FILES}
              ${CMAKE_SOURCE_DIR}/docs/output-schema.json
        DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT storebench)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/examples/
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples COMPONENT storebench)
install(FILES ${SB_CLI_FILES_DIR}/storebench
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions COMPONENT storebench)
if(HELP2MAN_EXECUTABLE)
  install(FILES ${SB_CLI_FILES_DIR}/storebench.1.gz
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT storebench)
endif()
if(STOREBENCH_MPI)
  install(TARGETS storebench-mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT mpi)
endif()

# The Debian packages: storebench, and storebench-mpi (the program with MPI, beside it) when
# Open MPI was found. Each package's Depends is what dpkg-shlibdeps (dpkg-dev) finds its
# programs link, so storebench's never names Open MPI.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME storebench)
set(CPACK_PACKAGE_VENDOR storebench)
set(CPACK_PACKAGE_CONTACT "storebench developers")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION misc)
set(CPACK_DEBIAN_STOREBENCH_PACKAGE_NAME storebench)
# Each package's description: its summary line, then the text. (CPACK_PACKAGE_DESCRIPTION_SUMMARY
# is left unset: CPack would put it before every package's description.)
set(CPACK_COMPONENT_STOREBENCH_DESCRIPTION "benchmark suite for database servers and storage
DVD Store, TPC-C-like, sysbench-style and Order Entry workloads on SQLite, PostgreSQL and
MariaDB; Iometer-style storage workloads; many instances, consolidation, power, comparisons and
reports, in one program.")
set(CPACK_COMPONENTS_ALL storebench)
if(STOREBENCH_MPI)
  list(APPEND CPACK_COMPONENTS_ALL mpi)
  set(CPACK_DEBIAN_MPI_PACKAGE_NAME storebench-mpi)
  # Its man page, completion and documentation are storebench's; mpirun is Open MPI's.
  set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "storebench (= ${PROJECT_VERSION})")
  set(CPACK_DEBIAN_MPI_PACKAGE_RECOMMENDS openmpi-bin)
  set(CPACK_COMPONENT_MPI_DESCRIPTION "storebench with MPI, for runs over several client processes
storebench-mpi runs one benchmark from several client processes or hosts started by mpirun
(mpirun -np K storebench-mpi oltp run ...): every rank runs its share, rank 0 writes the merged
result.")
endif()
include(CPack)
